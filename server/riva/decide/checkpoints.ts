import type { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import {
  budgetOf,
  describeAllowance,
  isOverBudget,
  latestBudgetAnswer,
  rootBudget,
  spentBy,
  splitBudget,
} from "@/server/domain/session/budgets";
import type { RivaLimits, RunBudget } from "@/server/domain/session/limits";
import type { CycleView, IntentionView, SessionView } from "@/server/domain/session/view";
import type { Judgment } from "@/server/domain/vocabulary/session";
import { failureSummary } from "./heuristics";
import {
  answeredQuestion,
  autoJudgment,
  cycleEvidence,
  describeAnswer,
  integrationVerdict,
  proposedReflection,
} from "./questions";
import type { Step } from "./step";

/**
 * The transition's checkpoint rules, pure like the rest of it: which judgment question to ask (or
 * answer automatically) and what a person's answer does; and the per-intention budget gate.
 */

export type Questions = Pick<CheckpointPolicy, "judgeAction" | "verifyIntegration" | "reviewReflection">;
export const AUTO_QUESTIONS: Questions = {
  judgeAction: "auto",
  verifyIntegration: "auto",
  reviewReflection: "auto",
};

/** judge_action: a cycle has its result but no judgment yet. */
export function judgmentStep(
  view: SessionView,
  intention: IntentionView,
  cycle: CycleView,
  questions: Questions,
): Step {
  const auto = autoJudgment(cycle);
  const answered = answeredQuestion(view, intention, "judgment", cycle.id);
  if (answered?.answer.question === "judge_action") {
    const chosen = answered.answer.judgment;
    const reason = `${describeAnswer(answered, auto.judgment, chosen)} (auto: ${auto.reason})`;
    const judged = { judgment: chosen, judgedBy: answered.decidedBy ?? "a user", judgmentReason: reason };
    return judgeStep(intention, cycle, judged, questions);
  }
  if (questions.judgeAction === "ask") {
    return {
      kind: "ask",
      intention,
      approvalKind: "judgment",
      thought: `The auto checkpoint judges this action ${auto.judgment} (${auto.reason}). Confirm it or choose another verdict.`,
      proposal: {
        question: "judge_action",
        cycleId: cycle.id,
        judgment: auto.judgment,
        reason: auto.reason,
        evidence: cycleEvidence(cycle),
      },
    };
  }
  const judged = { judgment: auto.judgment, judgedBy: "auto", judgmentReason: auto.reason };
  return judgeStep(intention, cycle, judged, questions);
}

/** The judgment as recorded; a miss gets its reflection at once unless a person reviews it. */
function judgeStep(
  intention: IntentionView,
  cycle: CycleView,
  judged: { judgment: Judgment; judgedBy: string; judgmentReason: string },
  questions: Questions,
): Step {
  const reflect = judged.judgment !== "SUCCESS" && questions.reviewReflection === "auto";
  return {
    kind: "judge",
    intention,
    cycleId: cycle.id,
    judgment: judged.judgment,
    judgedBy: judged.judgedBy,
    reason: judged.judgmentReason,
    reflection: reflect ? proposedReflection(cycle, judged) : null,
  };
}

/** review_reflection: a missed cycle without a reflection (only asked when the project says so). */
export function reflectionStep(view: SessionView, intention: IntentionView, cycle: CycleView): Step {
  const answered = answeredQuestion(view, intention, "reflection", cycle.id);
  if (answered?.answer.question === "review_reflection")
    return { kind: "reflect", intention, cycleId: cycle.id, reflection: answered.answer.reflection };
  return {
    kind: "ask",
    intention,
    approvalKind: "reflection",
    thought:
      "Review the reflection the next attempt will read: accept it, edit it, or ask for a decomposition.",
    proposal: {
      question: "review_reflection",
      cycleId: cycle.id,
      judgment: cycle.judgment ?? "UNCLEAR",
      reflection: proposedReflection(cycle),
    },
  };
}

/** A person reviewed the last reflection and asked to decompose instead of retrying. */
export function decompositionRequested(view: SessionView, intention: IntentionView, cycle: CycleView) {
  const answered = answeredQuestion(view, intention, "reflection", cycle.id);
  if (answered?.answer.question !== "review_reflection" || !answered.answer.decompose) return null;
  return `${answered.decidedBy ?? "a user"} asked to decompose after reviewing the reflection`;
}

/** verify_integration: every child of this parent is verified (and its contract checked, if any). */
export function integrationStep(
  view: SessionView,
  intention: IntentionView,
  children: readonly IntentionView[],
  questions: Questions,
): Step {
  const verdict = integrationVerdict(intention, children);
  const answered = answeredQuestion(view, intention, "integration");
  if (answered?.answer.question === "verify_integration") {
    const status = answered.answer.status;
    const reason = `integration: ${describeAnswer(answered, verdict.status, status)} (auto: ${verdict.reason})`;
    return { kind: "settle", intention, status, reason };
  }
  if (questions.verifyIntegration === "ask") {
    return {
      kind: "ask",
      intention,
      approvalKind: "integration",
      thought: `The integration check says ${verdict.status}: ${verdict.reason}. Confirm it or override it.`,
      proposal: { question: "verify_integration", ...verdict },
    };
  }
  return { kind: "settle", intention, status: verdict.status, reason: verdict.reason };
}

/**
 * Before `intention` spends on the model: its parent's budget is split among it and its siblings if
 * that has not happened yet (top-down); then the deepest intention on its branch that has spent its
 * whole budget asks a person, or carries out their answer (stop: it fails; decompose: it splits).
 */
export function budgetGate(
  view: SessionView,
  intention: IntentionView,
  budget: RunBudget | null,
  limits: RivaLimits,
): Step | null {
  const branch: IntentionView[] = [];
  for (let node: IntentionView | undefined = intention; node; ) {
    branch.unshift(node);
    node = node.parentId ? view.intentions[node.parentId] : undefined;
  }
  for (const node of branch) {
    if (node.childIds.length === 0) continue;
    const children = node.childIds.map((id) => view.intentions[id]).filter((kid) => kid !== undefined);
    if (children.some((kid) => kid.budget !== null)) continue;
    const own = node.parentId === null ? rootBudget(view, node.runId, budget) : budgetOf(view, node);
    if (!own) continue;
    const split = splitBudget(own, spentBy(view, node.id), node.childIds);
    return { kind: "split-budget", intention: node, ...split };
  }
  for (const node of branch.reverse()) {
    if (node.budget === null) continue;
    const answer = latestBudgetAnswer(view, node);
    const who = answer?.decidedBy ?? "a user";
    if (answer?.answer.choice === "stop") {
      const why = answer.reason ? `: ${answer.reason}` : "";
      return { kind: "settle", intention: node, status: "FAILED", reason: `budget: stopped by ${who}${why}` };
    }
    const lastDecision = node.decisions.filter((entry) => entry.decision !== "retry").at(-1)?.decision;
    if (answer?.answer.choice === "decompose" && node.childIds.length === 0 && lastDecision !== "decompose") {
      const trigger = `budget: ${who} asked to decompose it after it spent its share`;
      if (node.depth + 1 > limits.maxDepth) {
        const reason = `${trigger}, but it cannot be decomposed: limit reached: max depth (${limits.maxDepth})`;
        return { kind: "settle", intention: node, status: "FAILED", reason };
      }
      return { kind: "decompose", intention: node, trigger, summary: failureSummary(node.cycles) };
    }
    const spent = spentBy(view, node.id);
    const allowed = budgetOf(view, node);
    if (allowed && isOverBudget(spent, allowed)) {
      const used = describeAllowance({ maxCostUsd: spent.costUsd, maxTokens: spent.tokens });
      return {
        kind: "ask",
        intention: node,
        approvalKind: "intention-budget",
        thought: `"${node.what}" has spent ${used} of its budget (${describeAllowance(allowed)}). Grant more, decompose it, or stop it.`,
        proposal: { question: "intention_budget", budget: allowed, spent },
      };
    }
  }
  return null;
}
