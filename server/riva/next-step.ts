import type { ApprovalView, IntentionView, RunView, SessionView } from "@/server/events/fold";
import type { FinalRunStatus } from "@/server/events/vocabulary";
import { canVerifyDirectly, failureSummary, shouldDecompose, type Verdict } from "./heuristics";
import type { RivaLimits, RunBudget } from "./limits";

/**
 * The RIVA transition: what a run does next, decided from its folded events (and the clock) alone.
 * Seed 000's recursive `work()` becomes a depth-first walk of the stored tree, so there is no call
 * stack to lose: a run interrupted at any point (a crash, `kill -9`, a restart) continues from where
 * its events say it is, and nothing recorded is done twice.
 */
export type Step =
  | { kind: "done" }
  | { kind: "end"; status: FinalRunStatus; reason: string }
  | { kind: "await-approval"; approvalId: string }
  /** Before anything is planned: read the request, scan the workspace, recall memories. */
  | { kind: "discover"; root: IntentionView }
  /** The run spent its budget (times the grants so far): pause and ask a person. */
  | { kind: "ask-budget"; root: IntentionView; spent: string }
  /** No decision yet: `verdict` is can_verify_directly; when it says no, the model is asked to split. */
  | { kind: "plan"; intention: IntentionView; verdict: Verdict }
  /** Direct work stopped converging (`trigger`): a split is required, or the intention fails. */
  | { kind: "decompose"; intention: IntentionView; trigger: string; summary: string }
  | { kind: "close-interrupted-cycle"; intention: IntentionView; cycleId: string }
  /** verify_integration: every child is verified; the parent's own contract is checked in the sandbox. */
  | { kind: "integrate"; intention: IntentionView; childCount: number }
  | { kind: "act"; intention: IntentionView; previousAttempts: string[] }
  /** A person approved (or edited) the command of the next cycle: run exactly that. */
  | { kind: "execute-approved"; intention: IntentionView; approval: ApprovalView }
  /** A person rejected the command: the cycle is recorded as skipped, and the loop goes on. */
  | { kind: "skip-rejected"; intention: IntentionView; approval: ApprovalView }
  | { kind: "settle"; intention: IntentionView; status: "VERIFIED" | "FAILED"; reason: string };

export interface StepContext {
  limits: RivaLimits;
  /** Milliseconds since the epoch, from the clock port. */
  now: number;
  budget?: RunBudget | null;
}

export function nextStep(view: SessionView, runId: string, context: StepContext): Step {
  const run = view.runs[runId];
  if (run?.status !== "RUNNING") return { kind: "done" };
  const root = run.rootId ? view.intentions[run.rootId] : undefined;
  if (!root) return { kind: "end", status: "FAILED", reason: "the run has no root intention" };
  if (root.status === "VERIFIED")
    return { kind: "end", status: "VERIFIED", reason: verifiedReason(view, root) };
  if (root.status === "FAILED")
    return { kind: "end", status: "FAILED", reason: root.reason ?? "the task failed" };

  const approvals = Object.values(view.approvals).filter((approval) => approval.runId === run.id);
  const pending = approvals.find((approval) => approval.status === "PENDING");
  if (pending) return { kind: "await-approval", approvalId: pending.id };

  const { wallClockMs } = context.limits;
  if (workingMs(view, run, context.now) >= wallClockMs) {
    return {
      kind: "end",
      status: "FAILED",
      reason: `limit reached: wall clock (${wallClockMs / 1000} s of working time)`,
    };
  }

  if (run.intent === null) return { kind: "discover", root };

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
  const over = overBudget(view, run, context.budget ?? null);
  if (over) return { kind: "ask-budget", root, spent: over };

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
  return visit(view, run, root, context.limits);
}

function visit(view: SessionView, run: RunView, node: IntentionView, limits: RivaLimits): Step {
  if (node.childIds.length > 0) {
    const children = node.childIds.map((id) => view.intentions[id]).filter((child) => child !== undefined);
    for (const child of children) {
      if (child.status === "FAILED") {
        const reason = `child ${child.position + 1} "${child.what}" failed: ${child.reason ?? "no reason recorded"}`;
        return { kind: "settle", intention: node, status: "FAILED", reason };
      }
      if (child.status !== "VERIFIED") return visit(view, run, child, limits);
    }
    // verify_integration, auto checkpoint: the parent holds when every child was verified and its own
    // contract (if its acceptance names checkable criteria) holds too.
    if (node.contract.length > 0) return { kind: "integrate", intention: node, childCount: children.length };
    const reason = `integration check passed: all ${children.length} children verified`;
    return { kind: "settle", intention: node, status: "VERIFIED", reason };
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
  if (answered?.status === "APPROVED")
    return { kind: "execute-approved", intention: node, approval: answered };
  if (answered?.status === "REJECTED") return { kind: "skip-rejected", intention: node, approval: answered };
  const last = cycles.at(-1);
  if (last && last.output === null && last.error === null) {
    return { kind: "close-interrupted-cycle", intention: node, cycleId: last.id };
  }
  if (last?.judgment === "SUCCESS") {
    return { kind: "settle", intention: node, status: "VERIFIED", reason: last.judgmentReason ?? "verified" };
  }
  if (last) {
    const trigger = shouldDecompose(cycles, limits);
    if (trigger.yes) {
      if (node.depth + 1 > limits.maxDepth) {
        const reason = `${trigger.reason}, and it cannot be decomposed: limit reached: max depth (${limits.maxDepth})`;
        return { kind: "settle", intention: node, status: "FAILED", reason };
      }
      return { kind: "decompose", intention: node, trigger: trigger.reason, summary: failureSummary(cycles) };
    }
  }
  const cyclesInRun = Object.values(view.intentions)
    .filter((intention) => intention.runId === run.id)
    .reduce((sum, intention) => sum + intention.cycles.length, 0);
  if (cyclesInRun >= limits.maxIterations) {
    return {
      kind: "end",
      status: "FAILED",
      reason: `limit reached: max iterations (${limits.maxIterations} action cycles)`,
    };
  }
  const previousAttempts = cycles.map(
    (cycle) =>
      `${cycle.action.content} → ${cycle.judgment ?? "?"}: ${cycle.reflection ?? cycle.judgmentReason ?? ""}`,
  );
  return { kind: "act", intention: node, previousAttempts };
}

/** A command approval of this intention that no cycle has carried out yet. */
function unusedCommandApproval(view: SessionView, intention: IntentionView): ApprovalView | undefined {
  const used = new Set(intention.cycles.map((cycle) => cycle.approvalId));
  return Object.values(view.approvals).find(
    (approval) =>
      approval.kind === "command" && approval.intentionId === intention.id && !used.has(approval.id),
  );
}

/** What was spent, described, when it passed the budget times the grants a person gave; else null. */
function overBudget(view: SessionView, run: RunView, budget: RunBudget | null): string | null {
  if (!budget) return null;
  const grants = Object.values(view.approvals).filter(
    (approval) => approval.runId === run.id && approval.kind === "budget" && approval.status === "APPROVED",
  ).length;
  const tokens = run.tokensIn + run.tokensOut;
  if (budget.maxCostUsd !== null && run.costUsd >= budget.maxCostUsd * (grants + 1)) {
    return `$${run.costUsd.toFixed(4)} of $${(budget.maxCostUsd * (grants + 1)).toFixed(2)}`;
  }
  if (budget.maxTokens !== null && tokens >= budget.maxTokens * (grants + 1)) {
    return `${tokens} of ${budget.maxTokens * (grants + 1)} tokens`;
  }
  return null;
}

function isOpen(intention: IntentionView): boolean {
  return intention.status === "PENDING" || intention.status === "ACTIVE";
}

/** Time the run has been working: since it started, minus the time it waited for a person. */
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
