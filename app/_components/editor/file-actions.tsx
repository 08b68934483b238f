"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { describeError, useTRPC } from "../../_trpc/client";

type Question = { reason: string; binding: string; currentHash: string | null };

/**
 * Rename and Delete for the open file. Rename moves the file as it is in the sandbox (so it waits
 * until unsaved changes are saved or reloaded); Delete always asks in a dialog that names the file,
 * and deletes only the file as it was when asked.
 */
export function FileActions({
  sessionId,
  path,
  hash,
  dirty,
  onRenamed,
  onDeleted,
}: {
  sessionId: string;
  path: string;
  /** The hash of the file as opened: a file changed in the sandbox since is not renamed. */
  hash: string | null;
  dirty: boolean;
  onRenamed(to: string): void;
  onDeleted(): void;
}) {
  const trpc = useTRPC();
  const rename = useMutation(trpc.workspace.rename.mutationOptions());
  const remove = useMutation(trpc.workspace.delete.mutationOptions());
  const [renaming, setRenaming] = useState(false);
  const [to, setTo] = useState(path);
  const [renameQuestion, setRenameQuestion] = useState<Question | null>(null);
  const [deleteQuestion, setDeleteQuestion] = useState<Question | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const busy = rename.isPending || remove.isPending;

  function reset() {
    setRenaming(false);
    setTo(path);
    setRenameQuestion(null);
    setDeleteQuestion(null);
    setProblem(null);
    rename.reset();
    remove.reset();
  }

  async function doRename(confirmBinding: string | null) {
    const target = to.trim();
    setProblem(null);
    let outcome: Awaited<ReturnType<typeof rename.mutateAsync>>;
    try {
      outcome = await rename.mutateAsync({
        sessionId,
        from: path,
        to: target,
        baseHash: hash,
        confirmBinding,
      });
    } catch {
      return; // rename.error is shown below
    }
    if (outcome.status === "confirm") setRenameQuestion(outcome);
    else if (outcome.status === "conflict") setProblem(outcome.message);
    else onRenamed(target.replace(/^\/workspace\//, ""));
  }

  async function askDelete() {
    reset();
    try {
      const outcome = await remove.mutateAsync({ sessionId, path });
      if (outcome.status === "confirm") setDeleteQuestion(outcome);
    } catch {
      // remove.error is shown below
    }
  }

  async function doDelete(question: Question) {
    let outcome: Awaited<ReturnType<typeof remove.mutateAsync>>;
    try {
      outcome = await remove.mutateAsync({
        sessionId,
        path,
        confirmBinding: question.binding,
        baseHash: question.currentHash,
      });
    } catch {
      return;
    }
    if (outcome.status === "done") onDeleted();
    else if (outcome.status === "conflict") {
      setDeleteQuestion(null);
      setProblem(outcome.message);
    } else setDeleteQuestion(outcome);
  }

  const error = rename.error ?? remove.error;
  return (
    <>
      <button
        type="button"
        className="secondary"
        disabled={busy || dirty}
        title={dirty ? "Save or reload your changes first" : undefined}
        onClick={() => {
          reset();
          setRenaming(true);
        }}
        data-testid="file-rename"
      >
        Rename
      </button>
      <button
        type="button"
        className="danger"
        disabled={busy}
        onClick={() => void askDelete()}
        data-testid="file-delete"
      >
        Delete
      </button>
      {renaming && (
        <form
          className="file-action-form"
          aria-label={`Rename ${path}`}
          onSubmit={(event) => {
            event.preventDefault();
            void doRename(null);
          }}
        >
          <label className="inline">
            New name
            <input
              value={to}
              onChange={(event) => {
                setTo(event.target.value);
                setRenameQuestion(null);
              }}
              aria-label={`New path for ${path}`}
              data-testid="rename-path"
              // biome-ignore lint/a11y/noAutofocus: the person just asked for this field.
              autoFocus
            />
          </label>
          <button type="submit" className="primary" disabled={busy} data-testid="rename-submit">
            {rename.isPending ? "Renaming…" : "Rename"}
          </button>
          <button type="button" className="secondary" onClick={reset} data-testid="rename-cancel">
            Cancel
          </button>
          {renameQuestion && (
            <div
              role="alertdialog"
              aria-label="Confirm rename"
              className="card warn"
              data-testid="rename-confirm"
            >
              <p>{renameQuestion.reason} Rename anyway?</p>
              <button
                type="button"
                className="primary"
                disabled={busy}
                onClick={() => void doRename(renameQuestion.binding)}
                data-testid="rename-confirm-submit"
              >
                Rename anyway
              </button>
            </div>
          )}
        </form>
      )}
      {deleteQuestion && (
        <div
          role="alertdialog"
          aria-label={`Delete ${path}`}
          aria-describedby="delete-question-reason"
          className="card warn file-action-form"
          data-testid="delete-confirm"
        >
          <p>
            <strong>Delete {path}?</strong> {dirty ? "Your unsaved changes in the editor go with it. " : ""}
            <span className="muted small" id="delete-question-reason">
              {deleteQuestion.reason}
            </span>
          </p>
          <button
            type="button"
            className="danger"
            disabled={busy}
            onClick={() => void doDelete(deleteQuestion)}
            data-testid="delete-confirm-submit"
          >
            {remove.isPending ? "Deleting…" : "Delete"}
          </button>{" "}
          <button type="button" className="secondary" onClick={reset} data-testid="delete-cancel">
            Cancel
          </button>
        </div>
      )}
      {(problem || error) && (
        <p role="alert" className="error small file-action-form" data-testid="file-action-error">
          {problem ?? describeError(error)}
        </p>
      )}
    </>
  );
}
