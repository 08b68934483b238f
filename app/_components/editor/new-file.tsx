"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { describeError, useTRPC } from "../../_trpc/client";

/**
 * "New file" in the Files card: a path typed by the person, created empty through the dispatch. A
 * protected path asks first, and only that confirmation (bound to exactly that call) creates it.
 */
export function NewFile({ sessionId, onCreated }: { sessionId: string; onCreated(path: string): void }) {
  const trpc = useTRPC();
  const create = useMutation(trpc.workspace.create.mutationOptions());
  const [open, setOpen] = useState(false);
  const [path, setPath] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [question, setQuestion] = useState<{ path: string; reason: string; binding: string } | null>(null);

  function close() {
    setOpen(false);
    setPath("");
    setProblem(null);
    setQuestion(null);
    create.reset();
  }

  async function submit(confirmBinding: string | null) {
    const target = question?.path ?? path.trim();
    setProblem(null);
    let outcome: Awaited<ReturnType<typeof create.mutateAsync>>;
    try {
      outcome = await create.mutateAsync({ sessionId, path: target, confirmBinding });
    } catch {
      return; // create.error is shown below
    }
    if (outcome.status === "confirm")
      setQuestion({ path: target, reason: outcome.reason, binding: outcome.binding });
    else if (outcome.status === "conflict") setProblem(outcome.message);
    else {
      close();
      onCreated(target.replace(/^\/workspace\//, ""));
    }
  }

  if (!open)
    return (
      <button type="button" className="secondary" onClick={() => setOpen(true)} data-testid="new-file">
        New file
      </button>
    );
  return (
    <form
      className="file-action-form"
      aria-label="New file"
      onSubmit={(event) => {
        event.preventDefault();
        void submit(null);
      }}
    >
      <label className="inline">
        New file
        <input
          value={path}
          onChange={(event) => {
            setPath(event.target.value);
            setQuestion(null);
          }}
          placeholder="src/notes.md"
          aria-label="Path of the new file"
          data-testid="new-file-path"
          // biome-ignore lint/a11y/noAutofocus: the person just asked for this field.
          autoFocus
        />
      </label>
      <button type="submit" className="primary" disabled={create.isPending} data-testid="new-file-create">
        {create.isPending ? "Creating…" : "Create"}
      </button>
      <button type="button" className="secondary" onClick={close} data-testid="new-file-cancel">
        Cancel
      </button>
      {question && (
        <div
          role="alertdialog"
          aria-label="Confirm new file"
          className="card warn"
          data-testid="new-file-confirm"
        >
          <p>{question.reason} Create it anyway?</p>
          <button
            type="button"
            className="primary"
            disabled={create.isPending}
            onClick={() => void submit(question.binding)}
            data-testid="new-file-confirm-create"
          >
            Create anyway
          </button>
        </div>
      )}
      {(problem || create.error) && (
        <p role="alert" className="error small" data-testid="new-file-error">
          {problem ?? describeError(create.error)}
        </p>
      )}
    </form>
  );
}
