"use client";

import { useState } from "react";

/**
 * What a file's and a folder's Rename and Delete share in the Files card: the state of the rename
 * form and of the two questions, the form, and the delete dialog. Test ids are `<prefix>rename-…` and
 * `<prefix>delete-…` ("" for a file, "folder-" for a folder).
 */
type DeleteOutcome<Question> =
  | ({ status: "confirm" } & Question)
  | { status: "conflict"; message: string }
  | { status: "done" };

export function usePathActions<Question>(path: string, mutations: ReadonlyArray<{ reset(): void }>) {
  const [renaming, setRenaming] = useState(false);
  const [to, setTo] = useState(path);
  const [renameQuestion, setRenameQuestion] = useState<Question | null>(null);
  const [deleteQuestion, setDeleteQuestion] = useState<Question | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  function reset() {
    setRenaming(false);
    setTo(path);
    setRenameQuestion(null);
    setDeleteQuestion(null);
    setProblem(null);
    for (const mutation of mutations) mutation.reset();
  }

  /** Asks the server whether to delete; a `confirm` answer opens the dialog. */
  async function askDelete(send: () => Promise<DeleteOutcome<Question>>) {
    reset();
    try {
      const outcome = await send();
      if (outcome.status === "confirm") setDeleteQuestion(outcome);
    } catch {
      // the mutation's error is shown by the caller
    }
  }

  /** Sends the dialog's answer: done, a conflict to show, or another question. */
  async function confirmDelete(send: () => Promise<DeleteOutcome<Question>>, onDone: () => void) {
    let outcome: DeleteOutcome<Question>;
    try {
      outcome = await send();
    } catch {
      return;
    }
    if (outcome.status === "done") onDone();
    else if (outcome.status === "conflict") {
      setDeleteQuestion(null);
      setProblem(outcome.message);
    } else setDeleteQuestion(outcome);
  }

  return {
    askDelete,
    confirmDelete,
    renaming,
    setRenaming,
    to,
    setTo,
    renameQuestion,
    setRenameQuestion,
    deleteQuestion,
    setDeleteQuestion,
    problem,
    setProblem,
    reset,
  };
}

/** The new name, Rename / Cancel, and the protected-path question when the server asked one. */
export function RenameForm({
  label,
  prefix,
  to,
  busy,
  pending,
  question,
  onChange,
  onSubmit,
  onConfirm,
  onCancel,
}: {
  /** What is renamed, as the form's label says it ("docs/a.md", "folder docs"). */
  label: string;
  prefix: string;
  to: string;
  busy: boolean;
  pending: boolean;
  /** The server's reason to confirm, or null. */
  question: string | null;
  onChange(to: string): void;
  onSubmit(): void;
  onConfirm(): void;
  onCancel(): void;
}) {
  return (
    <form
      className="file-action-form"
      aria-label={`Rename ${label}`}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <label className="inline">
        New name
        <input
          value={to}
          onChange={(event) => onChange(event.target.value)}
          aria-label={`New path for ${label}`}
          data-testid={`${prefix}rename-path`}
          // biome-ignore lint/a11y/noAutofocus: the person just asked for this field.
          autoFocus
        />
      </label>
      <button type="submit" className="primary" disabled={busy} data-testid={`${prefix}rename-submit`}>
        {pending ? "Renaming…" : "Rename"}
      </button>
      <button type="button" className="secondary" onClick={onCancel} data-testid={`${prefix}rename-cancel`}>
        Cancel
      </button>
      {question !== null && (
        <div
          role="alertdialog"
          aria-label={prefix ? "Confirm folder rename" : "Confirm rename"}
          className="card warn"
          data-testid={`${prefix}rename-confirm`}
        >
          <p>{question} Rename anyway?</p>
          <button
            type="button"
            className="primary"
            disabled={busy}
            onClick={onConfirm}
            data-testid={`${prefix}rename-confirm-submit`}
          >
            Rename anyway
          </button>
        </div>
      )}
    </form>
  );
}

/** The dialog every delete goes through: the question, the server's reason, Delete and Cancel. */
export function DeleteDialog({
  label,
  prefix,
  title,
  note,
  reason,
  busy,
  pending,
  onDelete,
  onCancel,
}: {
  /** The dialog's accessible name ("Delete docs/a.md"). */
  label: string;
  prefix: string;
  /** The question in bold ("Delete docs/a.md?"). */
  title: string;
  /** Said after the question (unsaved changes that go with it), or "". */
  note: string;
  reason: string;
  busy: boolean;
  pending: boolean;
  onDelete(): void;
  onCancel(): void;
}) {
  const reasonId = `${prefix}delete-question-reason`;
  return (
    <div
      role="alertdialog"
      aria-label={label}
      aria-describedby={reasonId}
      className="card warn file-action-form"
      data-testid={`${prefix}delete-confirm`}
    >
      <p>
        <strong>{title}</strong> {note}
        <span className="muted small" id={reasonId}>
          {reason}
        </span>
      </p>
      <button
        type="button"
        className="danger"
        disabled={busy}
        onClick={onDelete}
        data-testid={`${prefix}delete-confirm-submit`}
      >
        {pending ? "Deleting…" : "Delete"}
      </button>{" "}
      <button type="button" className="secondary" onClick={onCancel} data-testid={`${prefix}delete-cancel`}>
        Cancel
      </button>
    </div>
  );
}
