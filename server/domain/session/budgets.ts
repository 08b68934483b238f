import type { Allowance, BudgetShare, CheckpointAnswer } from "@/server/domain/events/checkpoint-schema";
import type { RunBudget } from "@/server/domain/session/limits";
import type { ApprovalView, IntentionView, SessionView } from "@/server/domain/session/view";
import { rollUp } from "./fold";

/**
 * Per-intention budgets (issue #3): a parent's remaining budget is split equally among its children
 * when it decomposes, spend rolls up the tree, and an intention that has spent its share pauses and
 * asks a person — grant more, decompose, or stop — while the rest of the tree keeps its own shares.
 * Pure: everything comes from the folded log (shares from `budget-split`, answers from approvals).
 */

type BudgetAnswer = Extract<CheckpointAnswer, { question: "intention_budget" }>;

export function spentBy(view: SessionView, intentionId: string): { costUsd: number; tokens: number } {
  return rollUp(view, intentionId);
}

function isBelow(view: SessionView, id: string, ancestorId: string): boolean {
  for (
    let node = view.intentions[id];
    node;
    node = node.parentId ? view.intentions[node.parentId] : undefined
  )
    if (node.id === ancestorId) return true;
  return false;
}

function budgetAnswers(view: SessionView, runId: string): (ApprovalView & { answer: BudgetAnswer })[] {
  return Object.values(view.approvals).filter(
    (approval): approval is ApprovalView & { answer: BudgetAnswer } =>
      approval.runId === runId &&
      approval.kind === "intention-budget" &&
      approval.answer?.question === "intention_budget",
  );
}

/** What one answer adds to a budget: the grant; a "decompose" answer gives the children a fresh share. */
function addedBy(view: SessionView, approval: ApprovalView & { answer: BudgetAnswer }): Allowance | null {
  if (approval.answer.choice === "grant") return approval.answer.grant;
  if (approval.answer.choice === "decompose") return view.intentions[approval.intentionId]?.budget ?? null;
  return null;
}

/**
 * The intention's budget: its share, plus what people added to it or to anything below it (a grant to
 * a child is money its parent may spend too, so a grant never makes the parent ask in turn). The root
 * has none of its own: the run's budget governs it (see next-step.ts).
 */
export function budgetOf(view: SessionView, intention: IntentionView): Allowance | null {
  if (!intention.budget) return null;
  let { maxCostUsd, maxTokens } = intention.budget;
  for (const approval of budgetAnswers(view, intention.runId)) {
    if (!isBelow(view, approval.intentionId, intention.id)) continue;
    const added = addedBy(view, approval);
    if (maxCostUsd !== null && added?.maxCostUsd) maxCostUsd += added.maxCostUsd;
    if (maxTokens !== null && added?.maxTokens) maxTokens += added.maxTokens;
  }
  return { maxCostUsd, maxTokens };
}

/** Has it spent its whole budget (and something at all)? */
export function isOverBudget(spent: { costUsd: number; tokens: number }, budget: Allowance | null): boolean {
  if (!budget || (spent.costUsd === 0 && spent.tokens === 0)) return false;
  return (
    (budget.maxCostUsd !== null && spent.costUsd >= budget.maxCostUsd) ||
    (budget.maxTokens !== null && spent.tokens >= budget.maxTokens)
  );
}

/**
 * The root's budget: the run's, times the grants people gave at the run level, plus whatever they
 * granted intentions below it (a grant to an intention is money the run may spend too).
 */
export function rootBudget(view: SessionView, runId: string, budget: RunBudget | null): Allowance | null {
  if (!budget || (budget.maxCostUsd === null && budget.maxTokens === null)) return null;
  const grants = Object.values(view.approvals).filter(
    (approval) => approval.runId === runId && approval.kind === "budget" && approval.status === "APPROVED",
  ).length;
  let maxCostUsd = budget.maxCostUsd === null ? null : budget.maxCostUsd * (grants + 1);
  let maxTokens = budget.maxTokens === null ? null : budget.maxTokens * (grants + 1);
  for (const approval of budgetAnswers(view, runId)) {
    const added = addedBy(view, approval);
    if (maxCostUsd !== null && added?.maxCostUsd) maxCostUsd += added.maxCostUsd;
    if (maxTokens !== null && added?.maxTokens) maxTokens += added.maxTokens;
  }
  return { maxCostUsd, maxTokens };
}

/** Equal split of what the parent has left (never below zero) among its children. */
export function splitBudget(
  parent: Allowance,
  spent: { costUsd: number; tokens: number },
  childIds: readonly string[],
): { shares: BudgetShare[]; rule: string } {
  const count = Math.max(1, childIds.length);
  const leftCost = parent.maxCostUsd === null ? null : Math.max(0, parent.maxCostUsd - spent.costUsd);
  const leftTokens = parent.maxTokens === null ? null : Math.max(0, parent.maxTokens - spent.tokens);
  const budget: Allowance = {
    maxCostUsd: leftCost === null ? null : Math.floor((leftCost / count) * 1e6) / 1e6,
    maxTokens: leftTokens === null ? null : Math.floor(leftTokens / count),
  };
  const left = [
    leftCost === null ? null : `$${leftCost.toFixed(4)}`,
    leftTokens === null ? null : `${leftTokens} tokens`,
  ].filter((part) => part !== null);
  return {
    shares: childIds.map((intentionId) => ({ intentionId, budget })),
    rule: `equal split: ${childIds.length} children share the ${left.join(" and ")} left (${describeAllowance(budget)} each)`,
  };
}

/** The extra a "grant" answer gives when the person names no amount: the share again, at least what it spent. */
export function defaultGrant(share: Allowance | null, spent: { costUsd: number; tokens: number }): Allowance {
  return {
    maxCostUsd: share?.maxCostUsd == null ? null : Math.max(share.maxCostUsd, spent.costUsd),
    maxTokens: share?.maxTokens == null ? null : Math.max(share.maxTokens, spent.tokens),
  };
}

export function describeAllowance(allowance: Allowance): string {
  const parts = [
    allowance.maxCostUsd === null ? null : `$${allowance.maxCostUsd.toFixed(4)}`,
    allowance.maxTokens === null ? null : `${allowance.maxTokens} tokens`,
  ].filter((part) => part !== null);
  return parts.length > 0 ? parts.join(" / ") : "unlimited";
}

/** The latest answer a person gave about this intention's budget. */
export function latestBudgetAnswer(
  view: SessionView,
  intention: IntentionView,
): (ApprovalView & { answer: BudgetAnswer }) | undefined {
  return budgetAnswers(view, intention.runId)
    .filter((approval) => approval.intentionId === intention.id)
    .sort((a, b) => a.requestedSeq - b.requestedSeq)
    .at(-1);
}
