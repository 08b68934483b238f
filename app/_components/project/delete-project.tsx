"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { describeError, useTRPC } from "../../_trpc/client";

const plural = (count: number, one: string) => `${count} ${one}${count === 1 ? "" : "s"}`;

/**
 * The settings page's last section: deleting the project, behind a dialog that says what goes and
 * asks for the project's exact name (the server checks it again). Afterwards the team's project list.
 */
export function DeleteProject({
  project,
  canDelete,
  refusal,
}: {
  project: { id: string; name: string; teamId: string };
  canDelete: boolean;
  /** Why the caller may not (shown instead of the button). */
  refusal: string;
}) {
  const [asking, setAsking] = useState(false);
  return (
    <section className="card danger-zone" aria-labelledby="delete-project-title">
      <h2 id="delete-project-title">Delete project</h2>
      <p className="muted small">
        Removes the project and everything Arbor keeps of it. The upstream remote, if any, is not touched.
      </p>
      {!canDelete ? (
        <p className="muted" role="note" data-testid="cannot-delete-project">
          {refusal}
        </p>
      ) : asking ? (
        <DeleteDialog project={project} onCancel={() => setAsking(false)} />
      ) : (
        <button
          type="button"
          className="danger"
          onClick={() => setAsking(true)}
          data-testid="delete-project-open"
        >
          Delete project…
        </button>
      )}
    </section>
  );
}

function DeleteDialog({
  project,
  onCancel,
}: {
  project: { id: string; name: string; teamId: string };
  onCancel(): void;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [typed, setTyped] = useState("");
  const summary = useQuery(trpc.project.deletionSummary.queryOptions({ projectId: project.id }));
  const remove = useMutation(
    trpc.project.delete.mutationOptions({
      onSuccess: async () => {
        queryClient.removeQueries({ queryKey: trpc.project.getById.queryKey({ projectId: project.id }) });
        await queryClient.invalidateQueries({
          queryKey: trpc.project.list.queryKey({ teamId: project.teamId }),
        });
        router.push(`/projects?team=${encodeURIComponent(project.teamId)}`);
      },
    }),
  );
  const matches = typed === project.name;
  const sessions = summary.data ? plural(summary.data.sessions, "session") : "its sessions";
  const running = summary.data?.runningRuns ?? 0;
  return (
    <div
      role="alertdialog"
      aria-labelledby="delete-project-question"
      aria-describedby="delete-project-what"
      className="card warn stack"
      data-testid="delete-project-dialog"
    >
      <p id="delete-project-question">
        <strong>Delete {project.name}?</strong> This cannot be undone.
      </p>
      <ul id="delete-project-what" className="small" data-testid="delete-project-what">
        <li>
          {sessions}
          {summary.data?.sessions === 1
            ? " with its history and sandbox"
            : " with their history and sandboxes"}
          {running > 0 ? `; ${plural(running, "running run")} will be stopped` : ""}
        </li>
        <li>the dependency cache and the project's sandbox images</li>
        <li>Arbor's copy of the repository (not the upstream remote)</li>
      </ul>
      <form
        className="stack"
        onSubmit={(event) => {
          event.preventDefault();
          if (matches) remove.mutate({ projectId: project.id, confirmName: typed });
        }}
      >
        <label>
          Type the project's name, <strong>{project.name}</strong>, to confirm
          <input
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            autoComplete="off"
            data-testid="delete-project-name"
            // biome-ignore lint/a11y/noAutofocus: the person just asked to delete; this is the next step.
            autoFocus
          />
        </label>
        {remove.error && (
          <p className="error" role="alert" data-testid="delete-project-error">
            {describeError(remove.error)}
          </p>
        )}
        <div className="row">
          <button
            type="submit"
            className="danger"
            disabled={!matches || remove.isPending}
            data-testid="delete-project-confirm"
          >
            {remove.isPending ? "Deleting…" : "Delete this project"}
          </button>
          <button type="button" className="secondary" onClick={onCancel} data-testid="delete-project-cancel">
            Cancel
          </button>
        </div>
      </form>
    </div>
  );
}
