import type { ToolCallBody } from "@/server/domain/events/schema";
import type { ApprovalView, IntentionView, SessionView } from "@/server/domain/session/view";
import { canonicalJson } from "@/server/domain/text/canonical-json";
import { requestedCall } from "./tool-approval";

/**
 * Issue #17.4, pure: a person's rejection of an action holds for the rest of its intention. The
 * rejection and its reason reach the model in the next attempt's summary; a model (or the offline
 * heuristics, which are deterministic) that proposes exactly the rejected action again is not asked
 * about it again. Returns the rejection that already answered this call, if any.
 */
export function rejectedBefore(
  view: Pick<SessionView, "approvals">,
  intention: Pick<IntentionView, "id">,
  call: ToolCallBody,
): ApprovalView | undefined {
  return Object.values(view.approvals).find(
    (approval) =>
      approval.intentionId === intention.id &&
      approval.status === "REJECTED" &&
      // A check's card (before the work, at integration) is not an action the model proposed.
      approval.checkPhase === undefined &&
      (approval.kind === "command" || approval.kind === "tool") &&
      sameCall(requestedCall(approval), call),
  );
}

function sameCall(a: ToolCallBody, b: ToolCallBody): boolean {
  if (a.tool !== b.tool) return false;
  // A command is the same command whatever defaults (time limit) its parsed input carries.
  if (a.tool === "shell.exec") return a.input.command === b.input.command;
  return canonicalJson(a.input) === canonicalJson(b.input);
}

/** The intention's reason when the same rejected action came back. */
export function proposedAgainReason(approval: ApprovalView, call: ToolCallBody): string {
  const what = call.tool === "shell.exec" ? `\`${String(call.input.command)}\`` : `the ${call.tool} call`;
  const why = approval.reason ? ` (${approval.reason})` : "";
  return `${approval.decidedBy ?? "A person"} rejected ${what}${why}, and the model proposed it again unchanged: it is not asked again. Edit the action on its card instead of rejecting it, or give the task again another way.`;
}
