import type { EventOf, StoredEvent } from "@/server/domain/events/schema";
import type { PreApprovableCategory } from "@/server/domain/policy/checkpoints";
import type { ApprovalView, IntentionView, SessionView } from "@/server/domain/session/view";

/**
 * The approval and tool-call part of the fold (kept apart so `fold.ts` stays readable). Pure, like
 * the rest of the fold: the live view, replay and the engine all read approvals through it.
 */

export function requestedApproval(body: EventOf<"approval-requested">, event: StoredEvent): ApprovalView {
  return {
    id: body.approvalId,
    runId: body.runId,
    intentionId: body.intentionId,
    kind: body.kind,
    thought: body.thought,
    children: body.children,
    status: "PENDING",
    decidedBy: null,
    reason: null,
    requestedSeq: event.seq,
    requestedAt: event.at,
    decidedAt: null,
    command: body.command,
    editedCommand: null,
    binding: body.binding,
    confirm: body.confirm,
    gateReason: body.reason,
    proposal: body.proposal,
    answer: null,
    call: body.call,
    preview: body.preview,
    editedCall: null,
    interruption: body.interruption ?? null,
    ...(body.checkPhase ? { checkPhase: body.checkPhase } : {}),
  };
}

export function recordDecision(approval: ApprovalView, body: EventOf<"approval-decided">, at: string): void {
  approval.status = body.decision === "approved" ? "APPROVED" : "REJECTED";
  approval.decidedBy = body.decidedBy.name;
  approval.decidedById = body.decidedBy.userId;
  approval.reason = body.reason;
  approval.decidedAt = at;
  approval.editedCommand = body.command;
  approval.answer = body.answer;
  approval.editedCall = body.call;
  approval.checkPlanVersion = body.checkPlanVersion;
}

/**
 * An approved tool card's "for the rest of this run" grants go to that approval's own run, and only
 * there: a grant never reaches another run or session. Anything but an approved tool card grants nothing.
 */
export function grantRunPreApprovals(
  view: SessionView,
  approval: ApprovalView | undefined,
  body: EventOf<"approval-decided">,
): void {
  if (approval?.kind !== "tool" || body.decision !== "approved") return;
  if (approval.runId !== body.runId) return;
  grantRun(view, body.runId, body.preApproveRun, body.decidedBy.name, approval.id);
}

/** Adds grants to one run (the first grant of a category stays: it says who granted it). */
export function grantRun(
  view: SessionView,
  runId: string,
  categories: readonly PreApprovableCategory[],
  grantedBy: string,
  approvalId: string | null,
): void {
  const run = view.runs[runId];
  if (!run) return;
  for (const category of categories) {
    if (run.preApproved.some((grant) => grant.category === category)) continue;
    run.preApproved.push({ category, grantedBy, approvalId });
  }
}

export function toolCalled(
  intention: IntentionView | undefined,
  body: EventOf<"tool-called">,
  seq: number,
): void {
  intention?.reads.push({
    seq,
    cycleIndex: body.cycleIndex,
    tool: body.tool,
    input: body.input,
    status: body.status,
    output: body.output,
    durationMs: body.durationMs,
  });
}
