import { type PreApprovableCategory, preApprovableCategoryOf } from "@/server/domain/policy/checkpoints";
import type { ApprovalView, SessionView } from "@/server/domain/session/view";
import type { ToolCategory } from "@/server/domain/tools/risk";
import { scopeGrantsFor } from "./approved-scopes";

/**
 * Seed 004's batch pre-approval for one run: a person answering a tool card may approve "all file
 * changes (or git changes) for the rest of this run". The grant is folded into that run's view
 * (`RunView.preApproved`), so it is read here by the run's id: another run of the session, or
 * another session, has its own entry and never sees it. The gate (`decideApproval`) lets only moderate
 * calls of a granted category through; dangerous tools, protected paths and secrets still ask.
 */
export function runPreApprovalsFor(
  view: SessionView,
  runId: string,
): { run: ToolCategory[]; runGrantedBy: Partial<Record<ToolCategory, string>> } {
  const grants = view.runs[runId]?.preApproved ?? [];
  const runGrantedBy: Partial<Record<ToolCategory, string>> = {};
  for (const grant of grants) runGrantedBy[grant.category] ??= grant.grantedBy;
  return { run: grants.map((grant) => grant.category), runGrantedBy };
}

/**
 * Everything a run has granted in advance for a call made while `intentionId` is worked: the scope a
 * person approved with its decomposition (approved-scopes.ts) and the run's pre-approved categories.
 */
export function runGrantsFor(view: SessionView, runId: string, intentionId: string | undefined) {
  return { ...scopeGrantsFor(view, intentionId), preApproved: runPreApprovalsFor(view, runId) };
}

/**
 * Checks what a person asks to pre-approve for the run while answering an approval: only an approved
 * tool card grants, and only its own call's category (a write's card grants file changes, a commit's
 * git changes). Returns the categories to record, or a problem in words.
 */
export function checkRunPreApproval(
  approval: Pick<ApprovalView, "kind" | "call">,
  requested: readonly PreApprovableCategory[],
  approving: boolean,
): { ok: true; categories: PreApprovableCategory[] } | { ok: false; problem: string } {
  if (requested.length === 0) return { ok: true, categories: [] };
  if (!approving)
    return { ok: false, problem: "Only approving a change can pre-approve the rest of the run." };
  const offered =
    approval.kind === "tool" && approval.call ? preApprovableCategoryOf(approval.call.tool) : null;
  if (!offered)
    return { ok: false, problem: "Only a file or git change's card can pre-approve changes for the run." };
  if (requested.some((category) => category !== offered))
    return {
      ok: false,
      problem: `This card can pre-approve only ${offered} changes for the rest of the run.`,
    };
  return { ok: true, categories: [offered] };
}
