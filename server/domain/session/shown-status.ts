import type { IntentionView, RunView, SessionView } from "@/server/domain/session/view";
import type { RunStatus } from "@/server/domain/vocabulary/session";
import type { ShownStatus } from "@/server/domain/vocabulary/shown-status";

/**
 * What a person reads on a run or a node (issue #17.4), derived from the stored statuses and the log.
 * Pure and display-only: it never turns anything into VERIFIED that the engine did not verify.
 */

type Approvals = Pick<SessionView, "approvals">;

function waitsForPerson(view: Approvals, runId: string, intentionId?: string): boolean {
  return Object.values(view.approvals).some(
    (approval) =>
      approval.status === "PENDING" &&
      approval.runId === runId &&
      (intentionId === undefined || approval.intentionId === intentionId),
  );
}

/** Was it an answer (Chat mode, or a question answered read-only in Agent mode)? */
function isAnswer(run: Pick<RunView, "mode" | "route">): boolean {
  return run.mode === "chat" || run.route?.route === "answer";
}

export function shownRunStatus(
  view: Approvals,
  run: Pick<RunView, "id" | "status" | "mode" | "route">,
): ShownStatus {
  return shownRunFacts({ status: run.status, answer: isAnswer(run), waiting: waitsForPerson(view, run.id) });
}

/**
 * The same from a run's stored facts (the session list reads the tables, not the log): `answer`, it
 * was answered read-only; `waiting`, an approval of it waits for a person.
 */
export function shownRunFacts(run: { status: RunStatus; answer: boolean; waiting: boolean }): ShownStatus {
  switch (run.status) {
    case "RUNNING":
      return run.waiting ? "WAITING" : "WORKING";
    // Logs from before ANSWERED existed stored an answer as VERIFIED: an answer is not a verification.
    case "VERIFIED":
      return run.answer ? "ANSWERED" : "VERIFIED";
    default:
      return run.status;
  }
}

/**
 * A node as its run's end left it: the node that was working when a person stopped the run is
 * STOPPED (the engine stores it FAILED with the stop's reason, which keeps it out of VERIFIED); a node
 * that never started because the run ended first is NOT_STARTED, not PENDING.
 */
export function shownIntentionStatus(
  view: Approvals,
  intention: Pick<IntentionView, "id" | "runId" | "status" | "reason">,
  run: Pick<RunView, "status" | "reason"> | undefined,
): ShownStatus {
  const ended = run !== undefined && run.status !== "RUNNING";
  switch (intention.status) {
    case "VERIFIED":
      return "VERIFIED";
    case "PENDING":
      return ended ? "NOT_STARTED" : "PENDING";
    case "ACTIVE":
      if (!ended) return waitsForPerson(view, intention.runId, intention.id) ? "WAITING" : "WORKING";
      return run.status === "STOPPED" ? "STOPPED" : "FAILED";
    case "FAILED":
      return run?.status === "STOPPED" && intention.reason === run.reason ? "STOPPED" : "FAILED";
  }
}
