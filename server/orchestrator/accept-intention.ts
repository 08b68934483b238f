import { UserFacingError } from "@/server/domain/errors";
import { emptySessionView } from "@/server/domain/session/fold";
import type { IntentionView, SessionView } from "@/server/domain/session/view";
import { type EventLog, StaleLogError } from "@/server/events/log";
import { leafEvidence } from "@/server/riva/decide/evidence";
import { foldSessionLog } from "@/server/runtime/session-runtime";

/**
 * Issue #15: a person explicitly accepts a node as verified. Only a leaf that ended FAILED because
 * nothing that happened was evidence (no check ran, or every check was already green before the
 * work), and only after its run ended, so the engine never races the person. Accepting marks that
 * node only: its parents and the run's outcome stay as they ended, and the node reads
 * "accepted by <name>: <reason>". The caller has checked the person may approve.
 */

/** Why this node cannot be accepted, or null when it can. Pure. */
export function acceptRefusal(view: SessionView, intention: IntentionView | undefined): string | null {
  if (!intention) return "That node does not exist in this session.";
  const run = view.runs[intention.runId];
  if (!run || run.status === "RUNNING")
    return "Its run is still running: a node can be accepted once the run has ended.";
  if (intention.status === "VERIFIED")
    return intention.evidence === "accepted-by-person"
      ? `${intention.acceptedBy ?? "Someone"} already accepted it as verified; nothing was changed.`
      : "That node is already verified.";
  const last = intention.cycles.at(-1);
  const unproven =
    intention.status === "FAILED" &&
    intention.childIds.length === 0 &&
    last?.judgment === "SUCCESS" &&
    leafEvidence(intention, last).kind === null;
  if (!unproven)
    return "Only a node that failed for want of evidence (no check, or a check already green before the work) can be accepted.";
  return null;
}

/** Re-reads after a write that slipped in between (another acceptance, the engine of a newer run). */
const MAX_ATTEMPTS = 10;

/**
 * Exactly one acceptance per node, however many people click at once: the decision is appended only
 * if the log is still exactly as it was read (`expectLastSeq`); when anything was appended in between,
 * the log is read again and the decision made again, so the second of two people gets
 * "<first> already accepted it as verified", and a node whose state changed meanwhile is judged anew.
 */
export async function acceptIntention(
  log: EventLog,
  input: {
    sessionId: string;
    intentionId: string;
    reason: string;
    actor: { userId: string; name: string };
  },
): Promise<void> {
  const view = emptySessionView();
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    // Each attempt catches the same view up with what was appended since (another person's accept).
    await foldSessionLog(log, input.sessionId, view);
    const intention = view.intentions[input.intentionId];
    const refusal = acceptRefusal(view, intention);
    if (refusal !== null || !intention)
      throw new UserFacingError(refusal ?? "That node does not exist.", intention ? "CONFLICT" : "NOT_FOUND");
    try {
      await log.append(
        input.sessionId,
        [
          {
            type: "intention-status-changed",
            runId: intention.runId,
            intentionId: intention.id,
            status: "VERIFIED",
            reason: `accepted by ${input.actor.name}: ${input.reason}`,
            evidence: "accepted-by-person",
            acceptedBy: input.actor,
          },
        ],
        { expectLastSeq: view.lastSeq },
      );
      return;
    } catch (error) {
      if (!(error instanceof StaleLogError)) throw error;
    }
  }
  throw new UserFacingError("The session is busy right now: try accepting it again.", "CONFLICT");
}
