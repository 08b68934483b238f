"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import type { SessionView } from "@/server/domain/session/view";
import { fetchReplayLog } from "../replay/log-url";
import { ReplayPlayer } from "../replay/replay-view";

/**
 * The Replay tab: the session's own replay, in the workspace. The log is read once when the tab first
 * opens (not on every live event: a working run would refetch its whole log each time) and again when
 * the person asks for the events that came since (kept while other tabs are open); the full-page replay
 * is one click away.
 */
export function ReplayTab({
  view,
  sessionId,
  projectId,
  open,
}: {
  view: SessionView;
  sessionId: string;
  projectId: string;
  /** Whether the tab is on screen: nothing is fetched before it first is. */
  open: boolean;
}) {
  const [readAt, setReadAt] = useState<number | null>(null);
  if (open && readAt === null) setReadAt(view.lastSeq);
  const log = useQuery({
    queryKey: ["replay-log", sessionId, readAt],
    queryFn: () => fetchReplayLog(sessionId),
    enabled: readAt !== null,
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    retry: false,
  });
  const newer = readAt === null ? 0 : view.lastSeq - readAt;
  return (
    <section className="stack" aria-label="Replay" data-testid="replay-tab">
      <div className="row">
        <h2>Replay</h2>
        <Link
          href={`/projects/${projectId}/sessions/${sessionId}/replay`}
          className="primary-link small"
          data-testid="replay-tab-open"
        >
          Open on its own page
        </Link>
      </div>
      {log.error && (
        <p className="error small" role="alert">
          {log.error.message}
        </p>
      )}
      {!log.data && !log.error && <p className="muted small">Loading the session&apos;s log…</p>}
      {newer > 0 && (
        <p className="small" data-testid="replay-tab-newer">
          {newer} event{newer === 1 ? "" : "s"} since this replay was read.{" "}
          <button type="button" className="link" onClick={() => setReadAt(view.lastSeq)}>
            Read them
          </button>
        </p>
      )}
      {/* Only while on screen: the replayed tree would otherwise sit hidden beside the live one. */}
      {open && log.data && <ReplayPlayer key={readAt} events={log.data} />}
    </section>
  );
}
