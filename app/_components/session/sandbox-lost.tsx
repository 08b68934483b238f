"use client";

import { useMutation } from "@tanstack/react-query";
import type { SandboxHostView } from "@/server/domain/session/view";
import { describeError, useTRPC } from "../../_trpc/client";
import { ShownStatusBadge } from "./status-badge";

/**
 * A lost sandbox (its Docker host stopped answering): what happened, what a restart starts from and
 * what is gone, and the action that restarts it on another host. After a restart: where it went; after
 * its host answered again with the sandbox still there: that it is back.
 */
export function SandboxLost({
  sessionId,
  host,
  canRestart,
  running,
}: {
  sessionId: string;
  host: SandboxHostView | undefined;
  canRestart: boolean;
  running: boolean;
}) {
  const trpc = useTRPC();
  const restart = useMutation(trpc.work.restartSandbox.mutationOptions());
  if (!host?.lost) {
    if (host?.reconnected)
      return (
        <p className="small muted" data-testid="sandbox-reconnected">
          The sandbox's host {host.reconnected.host} answers again: the sandbox is back as it was, nothing
          lost.
        </p>
      );
    if (!host?.restarted) return null;
    const { restarted } = host;
    return (
      <p className="small muted" data-testid="sandbox-restarted">
        Sandbox restarted by {restarted.by} on {restarted.toHost} (its host {restarted.fromHost} was lost),{" "}
        {restarted.snapshot ? `from snapshot ${restarted.snapshot}.` : "from the session's branch."}
      </p>
    );
  }
  const { lost, lastSnapshot } = host;
  return (
    <section className="card" role="alert" aria-label="Sandbox lost" data-testid="sandbox-lost">
      <h2>
        Sandbox lost{" "}
        <ShownStatusBadge shown="SANDBOX_LOST" stored="sandbox-lost" testId="session-shown-status" />
      </h2>
      <p>{lost.message}</p>
      <p className="small">
        {lastSnapshot
          ? `A restart starts from the snapshot taken after the verified intention “${lastSnapshot.title}”.`
          : "No intention was verified in this sandbox yet: a restart starts from the session's branch."}{" "}
        {lost.unsaved.length > 0
          ? "Lost: the work of the intentions not verified then — "
          : "Lost: only what was changed after that snapshot (terminal work, unsaved edits)."}
      </p>
      {lost.unsaved.length > 0 && (
        <ul className="small" data-testid="sandbox-lost-unsaved">
          {lost.unsaved.map((title) => (
            <li key={title}>{title}</li>
          ))}
        </ul>
      )}
      {canRestart && (
        <button
          type="button"
          disabled={restart.isPending || running}
          onClick={() => restart.mutate({ sessionId })}
          data-testid="sandbox-restart"
        >
          {restart.isPending ? "Restarting…" : "Restart the sandbox on another host"}
        </button>
      )}
      {restart.error && (
        <p className="error small" role="alert">
          {describeError(restart.error)}
        </p>
      )}
    </section>
  );
}
