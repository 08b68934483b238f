"use client";

import { useMutation } from "@tanstack/react-query";
import { describeError, useTRPC } from "../../_trpc/client";
import { DeleteDialog, RenameForm, usePathActions } from "./path-actions";

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
  const actions = usePathActions<Question>(path, [rename, remove]);
  const { renaming, to, renameQuestion, deleteQuestion, problem, reset } = actions;
  const busy = rename.isPending || remove.isPending;

  async function doRename(confirmBinding: string | null) {
    const target = to.trim();
    actions.setProblem(null);
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
    if (outcome.status === "confirm") actions.setRenameQuestion(outcome);
    else if (outcome.status === "conflict") actions.setProblem(outcome.message);
    else onRenamed(target.replace(/^\/workspace\//, ""));
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
    <>
      <button
        type="button"
        className="secondary"
        disabled={busy || dirty}
        title={dirty ? "Save or reload your changes first" : undefined}
        onClick={() => {
          reset();
          actions.setRenaming(true);
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
        <RenameForm
          label={path}
          prefix=""
          to={to}
          busy={busy}
          pending={rename.isPending}
          question={renameQuestion?.reason ?? null}
          onChange={(value) => {
            actions.setTo(value);
            actions.setRenameQuestion(null);
          }}
          onSubmit={() => void doRename(null)}
          onConfirm={() => renameQuestion && void doRename(renameQuestion.binding)}
          onCancel={reset}
        />
      )}
      {deleteQuestion && (
        <DeleteDialog
          label={`Delete ${path}`}
          prefix=""
          title={`Delete ${path}?`}
          note={dirty ? "Your unsaved changes in the editor go with it. " : ""}
          reason={deleteQuestion.reason}
          busy={busy}
          pending={remove.isPending}
          onDelete={() => void doDelete(deleteQuestion)}
          onCancel={reset}
        />
      )}
      {(problem || error) && (
        <p role="alert" className="error small file-action-form" data-testid="file-action-error">
          {problem ?? describeError(error)}
        </p>
      )}
    </>
  );
}
