"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { describeError, useTRPC } from "../../_trpc/client";
import { filesOfDiff } from "../workspace/diff-files";
import { type WorkCardProps, WorkRemote } from "./work-remote";

/**
 * The session's work and the project's repository: save the workspace as the session's branch (a
 * secret scan may block it until the person overrides), merge that branch, or discard it.
 */

export function WorkPanel({ sessionId, projectId, work, running }: WorkCardProps) {
  const trpc = useTRPC();
  const [message, setMessage] = useState("");
  const save = useMutation(trpc.work.save.mutationOptions());
  const merge = useMutation(trpc.work.merge.mutationOptions());
  const discard = useMutation(trpc.work.discard.mutationOptions());
  const busy = save.isPending || merge.isPending || discard.isPending;
  const blocked = save.data?.status === "blocked" ? save.data.findings : null;
  const error = save.error ?? merge.error ?? discard.error;
  // The Changes panel's own query (shared cache): a session that changed nothing has nothing to save.
  // Only a comparison that is not being redone counts: the cache can hold one made while the run was
  // still working (before its edits), which the panel refetches when the run ends.
  const diff = useQuery({ ...trpc.work.diff.queryOptions({ sessionId }), enabled: !running });
  const unchanged =
    !diff.isFetching &&
    diff.data?.status === "ready" &&
    filesOfDiff(diff.data.diff).length === 0 &&
    work?.state !== "saved";

  return (
    <section className="card" aria-label="Work">
      <h2>Work</h2>
      {work && (
        <p className="small" data-testid="work-state" data-state={work.state}>
          {work.state === "saved" &&
            `Saved by ${work.by} as branch ${work.branch} (${work.files.length} ${work.files.length === 1 ? "file" : "files"} changed, ${work.commit?.slice(0, 8)}).`}
          {work.state === "merged" && `Merged by ${work.by} into the project (${work.commit?.slice(0, 8)}).`}
          {work.state === "discarded" && `Discarded by ${work.by}.`}
          {work.secretsOverridden && work.state === "saved" && " Saved despite a secret warning."}
        </p>
      )}
      {running && (
        <p className="muted small">The agent is working; save, merge or discard when the run ends.</p>
      )}
      {unchanged && !running && (
        <p className="muted small" data-testid="work-unchanged">
          Nothing to save: this session has changed no files.
        </p>
      )}
      <div className="row">
        <input
          placeholder="Commit message (optional)"
          value={message}
          onChange={(event) => setMessage(event.target.value)}
          data-testid="work-message"
          aria-label="Commit message"
        />
        <button
          type="button"
          className="secondary"
          disabled={busy || running || unchanged}
          onClick={() => save.mutate({ sessionId, message })}
          data-testid="work-save"
        >
          {save.isPending ? "Saving…" : "Save to project"}
        </button>
        <button
          type="button"
          className="primary"
          disabled={busy || running || work?.state !== "saved"}
          onClick={() => merge.mutate({ sessionId })}
          data-testid="work-merge"
        >
          {merge.isPending ? "Merging…" : "Merge into project"}
        </button>
        <button
          type="button"
          className="danger"
          disabled={busy || running || work?.state === "discarded"}
          onClick={() => discard.mutate({ sessionId })}
          data-testid="work-discard"
        >
          Discard
        </button>
      </div>
      <WorkRemote sessionId={sessionId} projectId={projectId} work={work} running={running} />
      {blocked && (
        <div role="alert" className="stack" data-testid="work-findings">
          <p className="error">Possible secrets in the changes; nothing was saved:</p>
          <ul className="small">
            {blocked.map((finding) => (
              <li key={`${finding.path}:${finding.line}:${finding.kind}`}>
                {finding.path}:{finding.line} — {finding.kind}: <code>{finding.preview}</code>
              </li>
            ))}
          </ul>
          <button
            type="button"
            className="danger"
            disabled={busy}
            onClick={() => save.mutate({ sessionId, message, allowSecrets: true })}
            data-testid="work-save-anyway"
          >
            Save anyway
          </button>
        </div>
      )}
      {error && (
        <p role="alert" className="error" data-testid="work-error">
          {describeError(error)}
        </p>
      )}
    </section>
  );
}
