import type { ApprovedScope, CheckStatus } from "@/server/domain/policy/approval-policy";
import type { IntentionView, SessionView } from "@/server/domain/session/view";
import { capEnd } from "@/server/domain/text/cap";
import { approvalBinding, verifyBinding } from "./binding";

/**
 * "Approve the check, not every diff" (issue #5): when a person approves a decomposition, each
 * child's owned_scope and acceptance check are approved with it. While that child is worked, a write
 * inside its scope passes the approval gate without a click as long as the check is not red; the gate
 * itself (`decideApproval`) still asks for a write outside, a dangerous tool, a protected path or a
 * secret. Pure: everything is read from the folded session.
 */

/** What a person approves for one child, and what its binding covers. */
export interface ScopeGrant {
  intentionId: string;
  what: string;
  acceptance: string;
  ownedScope: readonly string[];
}

const SCOPE_TOOL = "approve-scope";

/** `sha256:` over exactly this child: its id, what it does, how it is checked and where it writes. */
export function scopeBinding(grant: ScopeGrant): string {
  return approvalBinding(SCOPE_TOOL, { ...grant, ownedScope: [...grant.ownedScope] });
}

/**
 * The child's acceptance check as it last ran: red when its last contract check had a failing
 * criterion, green when every criterion passed, unknown before the first check.
 */
export function checkStatusOf(intention: Pick<IntentionView, "cycles" | "integrationChecks">): CheckStatus {
  const last =
    intention.cycles.findLast((cycle) => cycle.checks !== null)?.checks ?? intention.integrationChecks;
  if (!last || last.length === 0) return "unknown";
  return last.every((result) => result.passed) ? "green" : "red";
}

/**
 * The scope a person approved for the intention being worked, with its check's status; empty when
 * there is none: no person approved it (an automatic approval grants nothing), it names no glob, it
 * has no acceptance check to keep green, or the recorded binding does not match what the log says
 * the child is (fail closed). Only the intention's own approval counts, not an ancestor's: a child's
 * scope is what the person looked at for that child.
 */
export function approvedScopesFor(view: SessionView, intentionId: string | undefined): ApprovedScope[] {
  const intention = intentionId ? view.intentions[intentionId] : undefined;
  const approval = intention?.scopeApproval;
  if (!intention || !approval || intention.ownedScope.length === 0 || intention.contract.length === 0)
    return [];
  const grant: ScopeGrant = {
    intentionId: intention.id,
    what: intention.what,
    acceptance: intention.acceptance,
    ownedScope: intention.ownedScope,
  };
  if (!verifyBinding(approval.binding, SCOPE_TOOL, { ...grant, ownedScope: [...grant.ownedScope] }))
    return [];
  return [
    {
      ownedScope: [...intention.ownedScope],
      checkId: `the acceptance of "${capEnd(intention.what, 60)}"`,
      checkStatus: checkStatusOf(intention),
    },
  ];
}

/**
 * The owned_scope a person approved for this intention or, failing that, for its nearest ancestor
 * that has one — the scope its writes are bound to (a grandchild stays inside what was approved for
 * its parent). Null when no person approved one or a recorded binding does not match the log (then
 * nothing is granted, and nothing narrower than the run's scope is claimed either).
 */
export function personApprovedScope(
  view: SessionView,
  intentionId: string | undefined,
): { intentionId: string; what: string; ownedScope: string[] } | null {
  let intention = intentionId ? view.intentions[intentionId] : undefined;
  while (intention) {
    const approval = intention.scopeApproval;
    if (approval && intention.ownedScope.length > 0) {
      const grant = { intentionId: intention.id, what: intention.what, acceptance: intention.acceptance };
      const ownedScope = [...intention.ownedScope];
      if (!verifyBinding(approval.binding, SCOPE_TOOL, { ...grant, ownedScope })) return null;
      return { intentionId: intention.id, what: intention.what, ownedScope };
    }
    intention = intention.parentId ? view.intentions[intention.parentId] : undefined;
  }
  return null;
}

/**
 * What the approval gate gets for a call made while `intentionId` is worked: its approved scope, and
 * `approveWhenCheckUnknown` because the person approved the check with the scope (until the check
 * first runs it is not red). The engine's dispatch and the tests use this one function.
 */
export function scopeGrantsFor(view: SessionView, intentionId: string | undefined) {
  return { approvedScopes: approvedScopesFor(view, intentionId), approveWhenCheckUnknown: true };
}
