"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { setupSourceLabel } from "@/server/domain/settings/setup-command";
import { describeError, useTRPC } from "../../_trpc/client";

/**
 * On the project page, before the first task: the setup command (usually detected from a lock file)
 * that sessions skip until a person approves its exact text. Without it a project's own tests cannot
 * run in the sandbox (`vitest: not found`), so a new user must see it where they start work, not only
 * on the settings page. Shown only while there is a command and it is not approved.
 */
export function SetupNotice({ projectId, canApprove }: { projectId: string; canApprove: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const view = useQuery(trpc.environment.get.queryOptions({ projectId }));
  const [approved, setApproved] = useState<string | null>(null);
  const approve = useMutation(
    trpc.environment.approveSetup.mutationOptions({
      onSuccess: async () => {
        setApproved(view.data?.setup.command ?? null);
        await queryClient.invalidateQueries({ queryKey: trpc.environment.get.queryKey({ projectId }) });
      },
    }),
  );
  if (approved)
    return (
      <section className="card" aria-label="Setup command" data-testid="setup-notice">
        <h2>Setup command</h2>
        <p role="status" data-testid="setup-notice-approved">
          Approved: every new session runs <code>{approved}</code> in its workspace before the agent starts.
        </p>
      </section>
    );
  const setup = view.data?.setup;
  if (!setup?.command || setup.approved || !setup.hash) return null;
  const hash = setup.hash;
  return (
    <section className="card notice" aria-label="Setup command" data-testid="setup-notice">
      <h2>Setup command waits for approval</h2>
      <p>
        <code data-testid="setup-notice-command">{setup.command}</code>{" "}
        {setup.source && (
          <span className="muted">({setupSourceLabel(setup.source, setup.defaultBranch)})</span>
        )}
      </p>
      <p className="small">
        {setup.otherApproved
          ? "The command changed since a person approved one. "
          : "Nobody has approved it yet. "}
        Sessions skip it until a person approves this exact command, so the project's dependencies are not
        installed and its own tests cannot run in the sandbox.
      </p>
      {canApprove ? (
        <button
          type="button"
          onClick={() => approve.mutate({ projectId, hash })}
          disabled={approve.isPending}
          data-testid="setup-notice-approve"
        >
          Approve <code>{setup.command}</code> for new sessions
        </button>
      ) : (
        <p className="muted small">A project admin or owner can approve it in the project's settings.</p>
      )}
      {approve.error && (
        <p role="alert" className="error small">
          {describeError(approve.error)}
        </p>
      )}
      <p className="small">
        <Link href={`/projects/${projectId}/settings`}>
          Network, setup command and secrets in the settings →
        </Link>
      </p>
    </section>
  );
}
