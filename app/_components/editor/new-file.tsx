"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { describeError, useTRPC } from "../../_trpc/client";

/**
 * "New file" in the Files card: a path typed by the person, created empty through the dispatch. A
 * protected path asks first, and only that confirmation (bound to exactly that call) creates it.
 * "New folder" is the same with `folder`: git keeps a folder only through a file in it, so the
 * folder is made with an empty `.gitkeep` inside (which the replay and a save then carry too).
 */
export function NewFile({
  sessionId,
  folder = false,
  onCreated,
}: {
  sessionId: string;
  folder?: boolean;
  /** The new file's path, or the new folder's. */
  onCreated(path: string): void;
}) {
  const what = folder ? "folder" : "file";
  const testId = folder ? "new-folder" : "new-file";
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
    const typed = path.trim().replace(/\/+$/, "");
    const target = question?.path ?? (folder ? `${typed}/.gitkeep` : path.trim());
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
      const created = target.replace(/^\/workspace\//, "");
      onCreated(folder ? created.replace(/\/\.gitkeep$/, "") : created);
    }
  }

  if (!open)
    return (
      <button type="button" className="secondary" onClick={() => setOpen(true)} data-testid={testId}>
        New {what}
      </button>
    );
  return (
    <form
      className="file-action-form"
      aria-label={`New ${what}`}
      onSubmit={(event) => {
        event.preventDefault();
        void submit(null);
      }}
    >
      <label className="inline">
        New {what}
        <input
          value={path}
          onChange={(event) => {
            setPath(event.target.value);
            setQuestion(null);
          }}
          placeholder={folder ? "docs/guides" : "src/notes.md"}
          aria-label={`Path of the new ${what}`}
          data-testid={`${testId}-path`}
          // biome-ignore lint/a11y/noAutofocus: the person just asked for this field.
          autoFocus
        />
      </label>
      <button type="submit" className="primary" disabled={create.isPending} data-testid={`${testId}-create`}>
        {create.isPending ? "Creating…" : "Create"}
      </button>
      <button type="button" className="secondary" onClick={close} data-testid={`${testId}-cancel`}>
        Cancel
      </button>
      {question && (
        <div
          role="alertdialog"
          aria-label={`Confirm new ${what}`}
          className="card warn"
          data-testid={`${testId}-confirm`}
        >
          <p>{question.reason} Create it anyway?</p>
          <button
            type="button"
            className="primary"
            disabled={create.isPending}
            onClick={() => void submit(question.binding)}
            data-testid={`${testId}-confirm-create`}
          >
            Create anyway
          </button>
        </div>
      )}
      {(problem || create.error) && (
        <p role="alert" className="error small" data-testid={`${testId}-error`}>
          {problem ?? describeError(create.error)}
        </p>
      )}
    </form>
  );
}
