"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import type { WorkView } from "@/server/domain/session/work-view";
import { describeError, useTRPC } from "../../_trpc/client";

/** What the Work card and its remote half are drawn from. */
export type WorkCardProps = {
  sessionId: string;
  projectId: string;
  work: WorkView | null;
  running: boolean;
};

/**
 * The Work card's remote half (issue #21.3): push the saved branch to the project's upstream remote
 * (never forced; a refusal shows git's reason) and, on GitHub, open its pull request. What happened
 * last comes from the session's log, so every viewer sees it, and it survives a reload.
 */
export function WorkRemote({ sessionId, projectId, work, running }: WorkCardProps) {
  const trpc = useTRPC();
  const remote = useQuery(trpc.remote.get.queryOptions({ projectId }));
  const push = useMutation(trpc.remote.push.mutationOptions());
  const open = useMutation(trpc.remote.openPullRequest.mutationOptions());
  if (!remote.data) return null;
  const saved = work !== null && work.state !== "discarded";
  const pushed = work?.push && !work.push.refused;
  const busy = push.isPending || open.isPending;
  const error = push.error ?? open.error;
  return (
    <div className="stack" data-testid="work-remote">
      <p className="muted small">
        Remote: <code>{remote.data.url}</code>
      </p>
      <div className="row">
        <button
          type="button"
          className="secondary"
          disabled={busy || running || !saved}
          onClick={() => push.mutate({ sessionId })}
          data-testid="work-push"
        >
          {push.isPending ? "Pushing…" : "Push branch"}
        </button>
        {remote.data.provider === "github" && (
          <button
            type="button"
            className="secondary"
            disabled={busy || running || !pushed}
            onClick={() => open.mutate({ sessionId })}
            data-testid="work-open-pr"
          >
            {open.isPending ? "Opening…" : "Open pull request"}
          </button>
        )}
      </div>
      {work?.push && (
        <p
          className={work.push.refused ? "error small" : "small"}
          role={work.push.refused ? "alert" : undefined}
          data-testid="work-push-result"
          data-pushed={work.push.refused ? "no" : "yes"}
        >
          {work.push.refused
            ? `Push refused: ${work.push.refused}`
            : `Pushed ${work.branch} (${work.push.commit?.slice(0, 8)}) to the remote by ${work.push.by}.`}
        </p>
      )}
      {work?.pullRequest && (
        <p className="small" data-testid="work-pr-result">
          Pull request{" "}
          <a href={work.pullRequest.url} target="_blank" rel="noreferrer">
            #{work.pullRequest.number}
          </a>{" "}
          opened by {work.pullRequest.by}.
        </p>
      )}
      {error && (
        <p role="alert" className="error small" data-testid="work-remote-error">
          {describeError(error)}
        </p>
      )}
    </div>
  );
}
