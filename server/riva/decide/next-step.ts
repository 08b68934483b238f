import { rootBudget } from "@/server/domain/session/budgets";
import { warmupOf } from "@/server/domain/session/fold-reasoning";
import type { RivaLimits, RunBudget } from "@/server/domain/session/limits";
import type { ApprovalView, IntentionView, RunView, SessionView } from "@/server/domain/session/view";
import type { TierConfig } from "@/server/model/tiers/schema";
import {
  AUTO_QUESTIONS,
  budgetGate,
  decompositionRequested,
  integrationStep,
  judgmentStep,
  type Questions,
  reflectionStep,
} from "./checkpoints";
import { leafEvidence, weakestEvidence } from "./evidence";
import { actionCyclesInRun, guardBefore, guardRepairState, guardSettle } from "./guard-step";
import { canVerifyDirectly, failureSummary, shouldDecompose } from "./heuristics";
import { beforeRunEnds, QA_OFF, type QaSettings, qaReviewDue } from "./qa";
import type { Step } from "./step";
import { afterMissWithTiers, tierAttempts, tierGone } from "./tiers";
import { attemptedAction } from "./tool-action";

export interface StepContext {
  limits: RivaLimits;
  /** Milliseconds since the epoch, from the clock port. */
  now: number;
  budget?: RunBudget | null;
  /** Which judgment questions go to a person; all answered by the auto checkpoint when absent. */
  questions?: Questions;
  /** The run's model tiers (ARBOR_MODEL_CONFIG); absent: one model, seed 000's triggers alone. */
  tiers?: TierConfig | null;
  /** The project's advisory QA setting; off when absent. */
  qa?: QaSettings;
}

export function nextStep(view: SessionView, runId: string, context: StepContext): Step {
  const run = view.runs[runId];
  if (run?.status !== "RUNNING") return { kind: "done" };
  const root = run.rootId ? view.intentions[run.rootId] : undefined;
  if (!root) return { kind: "end", status: "FAILED", reason: "the run has no root intention" };
  const qa = context.qa ?? QA_OFF;
  if (root.status === "VERIFIED" || root.status === "FAILED") {
    // The verification reports into the delivery gate and QA reviews the root, then the run ends.
    const reason =
      root.status === "VERIFIED" ? verifiedReason(view, root) : (root.reason ?? "the task failed");
    // Out of working time, the advisory model steps (QA, delivery check) cannot change the outcome: skipped.
    const outOfTime = workingMs(view, run, context.now) >= context.limits.wallClockMs;
    return (
      beforeRunEnds(run, root, qa, reason, { outOfTime }) ?? { kind: "end", status: root.status, reason }
    );
  }

  const approvals = Object.values(view.approvals).filter((approval) => approval.runId === run.id);
  const pending = approvals.find((approval) => approval.status === "PENDING");
  if (pending) return { kind: "await-approval", approvalId: pending.id };

  const { wallClockMs } = context.limits;
  if (workingMs(view, run, context.now) >= wallClockMs) {
    // Time the server was down counts (a crash does not extend a run's limit): the reason says how much.
    const down = run.downtimeMs
      ? `, ${Math.round(run.downtimeMs / 1000)} s of it while the server was down`
      : "";
    return {
      kind: "end",
      status: "FAILED",
      reason: `limit reached: wall clock (${wallClockMs / 1000} s of working time${down})`,
    };
  }

  if (run.intent === null) return { kind: "discover", root };
  if (run.mode === "agent" && run.reasoning === "on" && !warmupOf(run)) return { kind: "warmup", root };

  const stoppedAtBudget = approvals.find(
    (approval) => approval.kind === "budget" && approval.status === "REJECTED",
  );
  if (stoppedAtBudget) {
    return {
      kind: "end",
      status: "STOPPED",
      reason: `budget: stopped by ${stoppedAtBudget.decidedBy ?? "a user"}`,
    };
  }

  for (const approval of approvals) {
    const intention = view.intentions[approval.intentionId];
    if (
      approval.kind === "decomposition" &&
      approval.status === "REJECTED" &&
      intention &&
      isOpen(intention)
    ) {
      const why = approval.reason ? `: ${approval.reason}` : "";
      const reason = `Decomposition rejected by ${approval.decidedBy ?? "a user"}${why}`;
      return { kind: "settle", intention, status: "FAILED", reason };
    }
  }
  const step = visit(
    view,
    run,
    root,
    context.limits,
    context.questions ?? AUTO_QUESTIONS,
    context.tiers ?? null,
    qa,
  );
  const guard = guardBefore(view, run, root, step);
  if (guard) return guard;
  if (step.kind === "plan" || step.kind === "act" || step.kind === "decompose") {
    // About to spend on the model (and only then, so a verdict is never left half recorded): the run's
    // budget, then the per-intention budgets, are enforced first.
    const over = overBudget(view, run, context.budget ?? null);
    if (over) return { kind: "ask-budget", root, spent: over };
    return budgetGate(view, step.intention, context.budget ?? null, context.limits) ?? step;
  }
  return guardSettle(view, run, step, context.limits);
}

function visit(
  view: SessionView,
  run: RunView,
  node: IntentionView,
  limits: RivaLimits,
  questions: Questions,
  tiers: TierConfig | null,
  qa: QaSettings,
): Step {
  if (node.childIds.length > 0) {
    const children = node.childIds.map((id) => view.intentions[id]).filter((child) => child !== undefined);
    for (const child of children) {
      if (child.status === "FAILED") {
        const reason = `child ${child.position + 1} "${child.what}" failed: ${child.reason ?? "no reason recorded"}`;
        return { kind: "settle", intention: node, status: "FAILED", reason };
      }
      // A verified child is reviewed before its next sibling starts, so the sibling can read the report.
      if (child.status === "VERIFIED" && qaReviewDue(child, qa))
        return { kind: "qa-review", intention: child };
      if (child.status !== "VERIFIED") return visit(view, run, child, limits, questions, tiers, qa);
    }
    // verify_integration: the parent holds when every child was verified and its own contract (if its
    // acceptance names checkable criteria) holds too; checked first, then proposed or settled.
    if (node.contract.length > 0 && node.integrationChecks === null)
      return { kind: "integrate", intention: node, childCount: children.length };
    return withChildrenEvidence(integrationStep(view, node, children, questions), children);
  }
  if (node.depth > limits.maxDepth) {
    return {
      kind: "settle",
      intention: node,
      status: "FAILED",
      reason: `limit reached: max depth (${limits.maxDepth})`,
    };
  }

  const decision = node.decisions.filter((entry) => entry.decision !== "retry").at(-1)?.decision;
  if (decision === undefined) return { kind: "plan", intention: node, verdict: canVerifyDirectly(node) };
  if (decision === "decompose") {
    return {
      kind: "settle",
      intention: node,
      status: "FAILED",
      reason: "the decomposition produced no children",
    };
  }

  const cycles = node.cycles;
  const answered = unusedCommandApproval(view, node);
  // Red before green: before the first action, the checks that may run twice run once.
  if (cycles.length === 0 && !answered && node.contract.length > 0 && node.baseline === undefined)
    return { kind: "baseline", intention: node };
  if (answered?.status === "APPROVED")
    return { kind: "execute-approved", intention: node, approval: answered };
  if (answered?.status === "REJECTED") return { kind: "skip-rejected", intention: node, approval: answered };
  const last = cycles.at(-1);
  if (last && last.output === null && last.error === null) {
    return { kind: "close-interrupted-cycle", intention: node, cycleId: last.id };
  }
  if (last && last.judgment === null) return judgmentStep(view, node, last, questions);
  // The regression guard gave the root a repair cycle: act once more, or fail when that cycle missed.
  const repair = guardRepairState(run, node);
  if (repair?.kind === "failed")
    return { kind: "settle", intention: node, status: "FAILED", reason: repair.reason };
  if (repair?.kind === "due") return actStep(view, run, node, limits, tiers, repair.reason);
  if (last && last.judgment !== "SUCCESS" && last.reflection === null && questions.reviewReflection === "ask")
    return reflectionStep(view, node, last);
  if (last?.judgment === "SUCCESS") {
    // VERIFIED only on a defined kind of evidence; a success that rests on none is not a verification.
    const evidence = leafEvidence(node, last);
    if (evidence.kind === null)
      return { kind: "settle", intention: node, status: "FAILED", reason: evidence.reason };
    const reason = `${last.judgmentReason ?? "verified"} — evidence: ${evidence.reason}`;
    return { kind: "settle", intention: node, status: "VERIFIED", reason, evidence: evidence.kind };
  }
  if (last) {
    const requested = decompositionRequested(view, node, last);
    const tiered = tiers && !requested ? afterMissWithTiers(node, tiers, limits) : null;
    if (tiered && tiered.kind !== "stay") return tiered;
    const trigger = requested ? { yes: true, reason: requested } : shouldDecompose(cycles, limits);
    if (!tiered && trigger.yes) {
      if (node.depth + 1 > limits.maxDepth) {
        const reason = `${trigger.reason}, and it cannot be decomposed: limit reached: max depth (${limits.maxDepth})`;
        return { kind: "settle", intention: node, status: "FAILED", reason };
      }
      return { kind: "decompose", intention: node, trigger: trigger.reason, summary: failureSummary(cycles) };
    }
  }
  return actStep(view, run, node, limits, tiers, null);
}

/**
 * The next cycle of a leaf, within the run's cycle limit. `repair` is the regression guard's reason
 * when it is a repair cycle: the last line of the attempts the model reads (act-context.ts also gives
 * it its own section of the request).
 */
function actStep(
  view: SessionView,
  run: RunView,
  node: IntentionView,
  limits: RivaLimits,
  tiers: TierConfig | null,
  repair: string | null,
): Step {
  if (actionCyclesInRun(view, run.id) >= limits.maxIterations) {
    return {
      kind: "end",
      status: "FAILED",
      reason: `limit reached: max iterations (${limits.maxIterations} action cycles)`,
    };
  }
  const why = repair === null ? {} : { retryReason: `repair cycle: ${repair}` };
  const withRepair = (attempts: string[]) => (repair === null ? attempts : [...attempts, repair]);
  if (tiers) {
    const gone = tierGone(node, tiers);
    if (gone) return gone;
    const { previousAttempts } = tierAttempts(node, tiers);
    return { kind: "act", intention: node, previousAttempts: withRepair(previousAttempts), ...why };
  }
  const previousAttempts = node.cycles.map(
    (cycle) =>
      `${attemptedAction(cycle.action)} → ${cycle.judgment ?? "?"}: ${cycle.reflection ?? cycle.judgmentReason ?? ""}`,
  );
  return { kind: "act", intention: node, previousAttempts: withRepair(previousAttempts), ...why };
}

/** An action approval (a command or another tool call) of this intention that no cycle has carried out yet. */
function unusedCommandApproval(view: SessionView, intention: IntentionView): ApprovalView | undefined {
  const used = new Set(intention.cycles.map((cycle) => cycle.approvalId));
  return Object.values(view.approvals).find(
    (approval) =>
      (approval.kind === "command" || approval.kind === "tool") &&
      approval.checkPhase === undefined &&
      approval.intentionId === intention.id &&
      !used.has(approval.id),
  );
}

/** What was spent, described, when it reached the run's budget (with what people granted); else null. */
function overBudget(view: SessionView, run: RunView, budget: RunBudget | null): string | null {
  const allowed = rootBudget(view, run.id, budget);
  if (!allowed) return null;
  const tokens = run.tokensIn + run.tokensOut;
  if (allowed.maxCostUsd !== null && run.costUsd >= allowed.maxCostUsd) {
    return `$${run.costUsd.toFixed(4)} of $${allowed.maxCostUsd.toFixed(2)}`;
  }
  if (allowed.maxTokens !== null && tokens >= allowed.maxTokens)
    return `${tokens} of ${allowed.maxTokens} tokens`;
  return null;
}

function isOpen(intention: IntentionView): boolean {
  return intention.status === "PENDING" || intention.status === "ACTIVE";
}

/**
 * Time the run has been working: since it started, minus the time it waited for a person. Time the
 * server was down is not subtracted: it counts (see `run-resumed`), except while an answer was pending.
 */
export function workingMs(view: SessionView, run: RunView, now: number): number {
  let waiting = 0;
  for (const approval of Object.values(view.approvals)) {
    if (approval.runId !== run.id) continue;
    const decided = approval.decidedAt ? Date.parse(approval.decidedAt) : now;
    waiting += Math.max(0, decided - Date.parse(approval.requestedAt));
  }
  return Math.max(0, now - Date.parse(run.startedAt) - waiting);
}

function verifiedReason(view: SessionView, root: IntentionView): string {
  const count = Object.values(view.intentions).filter(
    (intention) => intention.runId === root.runId && intention.status === "VERIFIED",
  ).length;
  return `all ${count} intentions verified`;
}

/** A parent verified by its integration rests on its children's evidence: the weakest of their kinds. */
function withChildrenEvidence(step: Step, children: readonly IntentionView[]): Step {
  if (step.kind !== "settle" || step.status !== "VERIFIED") return step;
  const evidence = weakestEvidence(children);
  if (evidence === null)
    return {
      ...step,
      status: "FAILED",
      reason: `${step.reason}, but a child was verified without a recorded kind of evidence`,
    };
  return { ...step, evidence };
}
