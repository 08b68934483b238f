"use client";

import { useEffect, useState } from "react";
import type { RunView, SessionView } from "@/server/domain/session/view";

/** Minutes and seconds, e.g. "3 min 05 s". */
function elapsed(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  return seconds < 60
    ? `${seconds} s`
    : `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, "0")} s`;
}

/**
 * Long work shows progress: while a run works, how many of its nodes have ended (a bar, their count)
 * and how long it has been going, ticking each second.
 */
export function RunProgress({ view, run }: { view: SessionView; run: RunView | undefined }) {
  const [now, setNow] = useState(() => Date.now());
  const running = run?.status === "RUNNING";
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [running]);
  if (!run || !running) return null;
  const nodes = Object.values(view.intentions).filter((intention) => intention.runId === run.id);
  const ended = nodes.filter((node) => node.status === "VERIFIED" || node.status === "FAILED").length;
  const cycles = nodes.reduce((sum, node) => sum + node.cycles.length, 0);
  return (
    <div className="run-progress" data-testid="run-progress" role="status" aria-live="polite">
      <progress max={Math.max(1, nodes.length)} value={ended} aria-label="Nodes ended" />
      <span className="muted">
        {ended} of {nodes.length} {nodes.length === 1 ? "node" : "nodes"} done · {cycles}{" "}
        {cycles === 1 ? "cycle" : "cycles"} · {elapsed(now - Date.parse(run.startedAt))}
      </span>
    </div>
  );
}
