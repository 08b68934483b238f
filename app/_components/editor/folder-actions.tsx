"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { describeError, useTRPC } from "../../_trpc/client";

type Question = { reason: string; binding: string; currentHash: string; files: number };

/**
 * Rename and Delete for the folder chosen in the tree. Delete always asks in a dialog that says how
 * many files go, and deletes only the folder as it was listed when asked; Rename asks only for a
 * protected path or a secret, as a file's rename does.
 */
export function FolderActions({
  sessionId,
  path,
  onRenamed,
  onDeleted,
}: {
  sessionId: string;
  path: string;
  onRenamed(to: string): void;
  onDeleted(): void;
}) {
  const trpc = useTRPC();
  const rename = useMutation(trpc.workspace.renameFolder.mutationOptions());
  const remove = useMutation(trpc.workspace.deleteFolder.mutationOptions());
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

  async function doRename(question: Question | null) {
    const target = to.trim();
    setProblem(null);
    let outcome: Awaited<ReturnType<typeof rename.mutateAsync>>;
    try {
      outcome = await rename.mutateAsync({
        sessionId,
        from: path,
        to: target,
        baseHash: question?.currentHash ?? null,
        confirmBinding: question?.binding ?? null,
      });
    } catch {
      return; // rename.error is shown below
    }
    if (outcome.status === "confirm") setRenameQuestion(outcome);
    else if (outcome.status === "conflict") setProblem(outcome.message);
    else onRenamed(target.replace(/^\/workspace\//, "").replace(/\/+$/, ""));
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
    <div className="file-editor-bar" data-testid="folder-actions" data-path={path}>
      <span className="muted small">Folder {path}/</span>
      <button
        type="button"
        className="secondary"
        disabled={busy}
        onClick={() => {
          reset();
          setRenaming(true);
        }}
        data-testid="folder-rename"
      >
        Rename folder
      </button>
      <button
        type="button"
        className="danger"
        disabled={busy}
        onClick={() => void askDelete()}
        data-testid="folder-delete"
      >
        Delete folder
      </button>
      {renaming && (
        <form
          className="file-action-form"
          aria-label={`Rename folder ${path}`}
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
              aria-label={`New path for folder ${path}`}
              data-testid="folder-rename-path"
              // biome-ignore lint/a11y/noAutofocus: the person just asked for this field.
              autoFocus
            />
          </label>
          <button type="submit" className="primary" disabled={busy} data-testid="folder-rename-submit">
            {rename.isPending ? "Renaming…" : "Rename"}
          </button>
          <button type="button" className="secondary" onClick={reset} data-testid="folder-rename-cancel">
            Cancel
          </button>
          {renameQuestion && (
            <div
              role="alertdialog"
              aria-label="Confirm folder rename"
              className="card warn"
              data-testid="folder-rename-confirm"
            >
              <p>{renameQuestion.reason} Rename anyway?</p>
              <button
                type="button"
                className="primary"
                disabled={busy}
                onClick={() => void doRename(renameQuestion)}
                data-testid="folder-rename-confirm-submit"
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
          aria-label={`Delete folder ${path}`}
          aria-describedby="folder-delete-reason"
          className="card warn file-action-form"
          data-testid="folder-delete-confirm"
        >
          <p>
            <strong>
              Delete {path}/ and the {deleteQuestion.files} file{deleteQuestion.files === 1 ? "" : "s"} in it?
            </strong>{" "}
            <span className="muted small" id="folder-delete-reason">
              {deleteQuestion.reason}
            </span>
          </p>
          <button
            type="button"
            className="danger"
            disabled={busy}
            onClick={() => void doDelete(deleteQuestion)}
            data-testid="folder-delete-confirm-submit"
          >
            {remove.isPending ? "Deleting…" : "Delete"}
          </button>{" "}
          <button type="button" className="secondary" onClick={reset} data-testid="folder-delete-cancel">
            Cancel
          </button>
        </div>
      )}
      {(problem || error) && (
        <p role="alert" className="error small file-action-form" data-testid="folder-action-error">
          {problem ?? describeError(error)}
        </p>
      )}
    </div>
  );
}
