"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { type ReactNode, useDeferredValue, useEffect, useMemo, useState } from "react";
import type { StoredEvent } from "@/server/domain/events/schema";
import { foldEvents } from "@/server/domain/session/fold";
import { NotFound } from "../not-found";
import { IntentionTree } from "../session/intention-tree";
import { RunDelivery } from "../session/qa-reports";
import { SandboxInfo } from "../session/sandbox-info";
import { RunStatusBadge } from "../session/status-badge";
import { filesAt } from "./files-at";
import { FilesPanel } from "./files-panel";
import { fetchReplayLog } from "./log-url";
import { markersOf } from "./markers";

const SPEEDS = [1, 4, 16, 64] as const;

/** What the replay page read on the server: the session's name and project, or why it cannot be shown. */
export type ReplaySession =
  | { ok: true; title: string; project: { id: string; name: string } }
  | { ok: false; message: string };

/**
 * A past session, event by event: play, pause, speed and a scrubber over its log; jump to its
 * decompositions, answers and failures. At any point the tree is the fold of the log up to there.
 */
export function ReplayView({ sessionId, session }: { sessionId: string; session: ReplaySession }) {
  const log = useQuery({
    queryKey: ["replay-log", sessionId],
    queryFn: () => fetchReplayLog(sessionId),
    enabled: session.ok,
    // A past session's log is read once per visit; refetching 10 000 events on focus helps nobody.
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    retry: false,
  });
  if (!session.ok) return <NotFound what="Session" error={new Error(session.message)} />;
  if (log.error) return <NotFound what="Session" error={log.error} />;
  if (!log.data) return <p className="muted">Loading the session's log…</p>;
  return (
    <ReplayPlayer
      events={log.data}
      header={
        <nav className="breadcrumbs">
          <Link href="/projects">Projects</Link> /{" "}
          <Link href={`/projects/${session.project.id}`}>{session.project.name}</Link> /{" "}
          <Link href={`/projects/${session.project.id}/sessions/${sessionId}`}>{session.title}</Link> / replay
        </nav>
      }
    />
  );
}

/**
 * The player itself, on the replay page and in the session's Replay tab: the controls, the tree as it
 * was at the chosen event, the sandbox and the files at that point.
 */
export function ReplayPlayer({ events, header }: { events: StoredEvent[]; header?: ReactNode }) {
  const [position, setPosition] = useState<number | null>(null);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState<(typeof SPEEDS)[number]>(4);
  const at = position ?? events.length;
  // Dragging the scrubber moves its thumb at once; the tree follows when React has time (a fold of
  // 10 000 events is ~15 ms, and a drag sends many positions).
  const shownAt = useDeferredValue(at);
  const view = useMemo(() => foldEvents(events.slice(0, shownAt)), [events, shownAt]);
  const markers = useMemo(() => markersOf(events), [events]);

  useEffect(() => {
    if (!playing) return;
    if (at >= events.length) {
      setPlaying(false);
      return;
    }
    const timer = setTimeout(() => setPosition(at + 1), 1000 / speed);
    return () => clearTimeout(timer);
  }, [playing, at, events.length, speed]);

  const current = events[at - 1];

  return (
    <div className="stack">
      {header}
      <section className="card stack" aria-label="Replay controls">
        <div className="row">
          <button
            type="button"
            className="secondary"
            onClick={() => setPlaying(!playing)}
            data-testid="replay-play"
          >
            {playing ? "Pause" : "Play"}
          </button>
          <label className="inline">
            Speed
            <select
              value={speed}
              onChange={(event) => setSpeed(Number(event.target.value) as (typeof SPEEDS)[number])}
              data-testid="replay-speed"
            >
              {SPEEDS.map((value) => (
                <option key={value} value={value}>
                  {value} events/s
                </option>
              ))}
            </select>
          </label>
          <span className="muted small" data-testid="replay-position">
            event {at} of {events.length}
            {current ? ` · ${current.body.type} · ${new Date(current.at).toLocaleTimeString()}` : ""}
          </span>
        </div>
        <input
          type="range"
          min={0}
          max={events.length}
          value={at}
          onChange={(event) => {
            setPlaying(false);
            setPosition(Number(event.target.value));
          }}
          aria-label="Position in the session"
          data-testid="replay-scrubber"
        />
        <div className="row">
          {markers.map((marker) => (
            <button
              key={`${marker.position}:${marker.kind}`}
              type="button"
              className={`link marker ${marker.kind}`}
              onClick={() => {
                setPlaying(false);
                setPosition(marker.position);
              }}
              data-testid="replay-marker"
              data-kind={marker.kind}
            >
              {marker.label}
            </button>
          ))}
        </div>
      </section>
      <section className="card" aria-label="Intention tree at this point">
        <h2>Intentions at this point</h2>
        {Object.values(view.approvals)
          .filter((approval) => approval.status === "PENDING")
          .map((approval) => (
            <p key={approval.id} className="warn small" data-testid="replay-waiting">
              Waiting for a person: {approval.kind} ({approval.thought})
            </p>
          ))}
        {view.runOrder.length === 0 && <p className="muted">Nothing had happened yet.</p>}
        {[...view.runOrder].reverse().map((runId) => {
          const run = view.runs[runId];
          return run?.rootId ? (
            <div key={runId}>
              <RunStatusBadge run={run} view={view} /> <RunDelivery run={run} />
              <IntentionTree view={view} rootId={run.rootId} lazyCycles />
            </div>
          ) : null;
        })}
      </section>
      <SandboxInfo
        run={[...view.runOrder]
          .reverse()
          .map((id) => view.runs[id])
          .find((run) => run?.sandboxInfo)}
      />
      <FilesPanel change={filesAt(events, shownAt)} />
    </div>
  );
}
