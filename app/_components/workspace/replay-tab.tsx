"use client";

import Link from "next/link";
import type { SessionView } from "@/server/domain/session/view";

/**
 * The Replay tab: the session's runs, newest first, each one click away from the step-by-step replay
 * (the tree, files and logs at any event). The trace export stays in the top bar.
 */
export function ReplayTab({
  view,
  sessionId,
  projectId,
}: {
  view: SessionView;
  sessionId: string;
  projectId: string;
}) {
  const href = `/projects/${projectId}/sessions/${sessionId}/replay`;
  return (
    <section className="card stack" aria-label="Replay" data-testid="replay-tab">
      <h2>Replay</h2>
      <p className="muted small">
        Step through everything this session did, event by event: the tree, the files and each command&apos;s
        output as they were at that moment.
      </p>
      <p>
        <Link href={href} className="primary-link" data-testid="replay-tab-open">
          Open the replay
        </Link>
      </p>
      {view.runOrder.length > 0 && (
        <ul className="list" aria-label="Runs">
          {[...view.runOrder].reverse().map((runId) => {
            const run = view.runs[runId];
            if (!run) return null;
            return (
              <li key={runId}>
                <span className="small">{run.task}</span>
                <span className="row">
                  {/* Plain text: the top bar's badge is the one `run-status` on the page. */}
                  <span className="small" data-run-status={run.status}>
                    {run.status.toLowerCase()}
                  </span>
                  <span className="muted small">{new Date(run.startedAt).toLocaleTimeString()}</span>
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
