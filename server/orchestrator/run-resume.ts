import type { SessionView } from "@/server/domain/session/view";
import type { EventLog } from "@/server/events/log";
import { foldSessionLog } from "@/server/runtime/session-runtime";

/**
 * How long the server was down since the run's last event, recorded before it resumes: it counts
 * against the run's wall clock, unless a person's answer was pending (that time is waiting).
 */
export async function recordResumed(
  log: Pick<EventLog, "read" | "append">,
  clock: () => number,
  sessionId: string,
  runId: string,
): Promise<void> {
  const view = await foldSessionLog(log, sessionId);
  if (view.runs[runId]?.status !== "RUNNING") return;
  const last = (await log.read(sessionId, Math.max(0, view.lastSeq - 1))).at(-1);
  if (!last) return;
  const downMs = Math.max(0, clock() - Date.parse(last.at));
  const waiting = Object.values(view.approvals).some(
    (approval) => approval.runId === runId && approval.status === "PENDING",
  );
  await log.append(sessionId, [{ type: "run-resumed", runId, downMs, counted: !waiting }]);
}

/** A run on the answer path (its route says so; a Chat-mode run always is, whatever was logged). */
export function answersRun(view: SessionView, runId: string): boolean {
  const run = view.runs[runId];
  return run?.mode === "chat" || run?.route?.route === "answer";
}
