import { randomUUID } from "node:crypto";
import type { ChildProposalInput, EventInput } from "@/server/domain/events/schema";
import type { IntentionView } from "@/server/domain/session/view";
import { scopeBinding } from "@/server/policy/approval/approved-scopes";

/**
 * The events that create an approved decomposition's children, in order, one level below the parent.
 * `approvedBy` is set only when a person approved: then each child's owned_scope and acceptance check
 * are approved with it, bound to exactly that child. An automatic approval grants no scope.
 */
export function childIntentions(
  runId: string,
  parent: Pick<IntentionView, "id" | "depth">,
  children: readonly ChildProposalInput[],
  approvedBy?: { approvalId: string; name: string },
): EventInput[] {
  return children.map((child, position) => {
    const intentionId = randomUUID();
    const ownedScope = child.ownedScope ?? [];
    const grant = { intentionId, what: child.what, acceptance: child.acceptance, ownedScope };
    return {
      type: "intention-created",
      runId,
      intentionId,
      parentId: parent.id,
      what: child.what,
      acceptance: child.acceptance,
      depth: parent.depth + 1,
      position,
      ownedScope,
      scopeApproval:
        approvedBy && ownedScope.length > 0
          ? { approvalId: approvedBy.approvalId, binding: scopeBinding(grant), approvedBy: approvedBy.name }
          : null,
    };
  });
}
