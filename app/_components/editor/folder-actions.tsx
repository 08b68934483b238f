"use client";

import { useMutation } from "@tanstack/react-query";
import { describeError, useTRPC } from "../../_trpc/client";
import { DeleteDialog, RenameForm, usePathActions } from "./path-actions";

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
  const actions = usePathActions<Question>(path, [rename, remove]);
  const { renaming, to, renameQuestion, deleteQuestion, problem, reset } = actions;
  const busy = rename.isPending || remove.isPending;

  async function doRename(question: Question | null) {
    const target = to.trim();
    actions.setProblem(null);
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
    if (outcome.status === "confirm") actions.setRenameQuestion(outcome);
    else if (outcome.status === "conflict") actions.setProblem(outcome.message);
    else onRenamed(target.replace(/^\/workspace\//, "").replace(/\/+$/, ""));
  }

  const askDelete = () => actions.askDelete(() => remove.mutateAsync({ sessionId, path }));
  const doDelete = (question: Question) =>
    actions.confirmDelete(
      () =>
        remove.mutateAsync({
          sessionId,
          path,
          confirmBinding: question.binding,
          baseHash: question.currentHash,
        }),
      onDeleted,
    );

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
          actions.setRenaming(true);
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
        <RenameForm
          label={`folder ${path}`}
          prefix="folder-"
          to={to}
          busy={busy}
          pending={rename.isPending}
          question={renameQuestion?.reason ?? null}
          onChange={(value) => {
            actions.setTo(value);
            actions.setRenameQuestion(null);
          }}
          onSubmit={() => void doRename(null)}
          onConfirm={() => void doRename(renameQuestion)}
          onCancel={reset}
        />
      )}
      {deleteQuestion && (
        <DeleteDialog
          label={`Delete folder ${path}`}
          prefix="folder-"
          title={`Delete ${path}/ and the ${deleteQuestion.files} file${deleteQuestion.files === 1 ? "" : "s"} in it?`}
          note=""
          reason={deleteQuestion.reason}
          busy={busy}
          pending={remove.isPending}
          onDelete={() => void doDelete(deleteQuestion)}
          onCancel={reset}
        />
      )}
      {(problem || error) && (
        <p role="alert" className="error small file-action-form" data-testid="folder-action-error">
          {problem ?? describeError(error)}
        </p>
      )}
    </div>
  );
}
