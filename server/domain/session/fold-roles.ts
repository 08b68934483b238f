import type { RoleReportedBody } from "@/server/domain/events/bodies/roles";
import type { IntentionRoleFields, SessionView } from "@/server/domain/session/view";

/**
 * The fold of full mode's role reports: what the Librarian ranked, what the Critic said, which test
 * Chaos wrote, on the intention they worked for. The latest few are kept for the node's card.
 */

const KEPT_REPORTS = 12;

export const noIntentionRoles = (): IntentionRoleFields => ({ roles: [] });

export function foldRoleEvent(view: SessionView, body: RoleReportedBody): void {
  const intention = view.intentions[body.intentionId];
  if (!intention) return;
  const { type: _type, runId: _runId, intentionId: _intentionId, ...report } = body;
  intention.roles = [...intention.roles, report].slice(-KEPT_REPORTS);
}
