import type { IntentionView, RunView, SessionView } from "@/server/events/fold";
import type { FinalRunStatus } from "@/server/events/vocabulary";

/**
 * What a run should do next, decided from its folded events alone. Because the decision reads only
 * the log, a run interrupted at any point (a crash, `kill -9`, a restart) continues from where its
 * events say it is: nothing is done twice and nothing is skipped.
 */
export type Step =
  | { kind: "done" }
  | { kind: "end"; status: FinalRunStatus; reason: string }
  | { kind: "await-approval"; approvalId: string }
  | { kind: "plan"; intention: IntentionView }
  | { kind: "close-interrupted-cycle"; intention: IntentionView; cycleId: string }
  | { kind: "act"; intention: IntentionView; previousAttempts: string[] }
  | { kind: "settle"; intention: IntentionView; status: "VERIFIED" | "FAILED"; reason: string };

export interface StepLimits {
  /** Cycles an intention may start before it fails (only UNCLEAR outcomes are retried here). */
  maxCyclesPerIntention: number;
}

export function nextStep(view: SessionView, runId: string, limits: StepLimits): Step {
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
  const rejected = approvals.find((approval) => approval.status === "REJECTED");
  if (rejected) {
    const why = rejected.reason ? `: ${rejected.reason}` : "";
    return {
      kind: "end",
      status: "FAILED",
      reason: `Decomposition rejected by ${rejected.decidedBy ?? "a user"}${why}`,
    };
  }
  return visit(view, run, root, limits);
}

function visit(view: SessionView, run: RunView, node: IntentionView, limits: StepLimits): Step {
  if (node.childIds.length > 0) {
    const children = node.childIds.map((id) => view.intentions[id]).filter((child) => child !== undefined);
    for (const child of children) {
      if (child.status === "FAILED") {
        const reason = `child ${child.position + 1} "${child.what}" failed: ${child.reason ?? "no reason recorded"}`;
        return { kind: "settle", intention: node, status: "FAILED", reason };
      }
      if (child.status !== "VERIFIED") return visit(view, run, child, limits);
    }
    return {
      kind: "settle",
      intention: node,
      status: "VERIFIED",
      reason: `integration check passed: all ${children.length} children verified`,
    };
  }
  if (node.decisions.length === 0) return { kind: "plan", intention: node };

  const last = node.cycles.at(-1);
  if (last && last.output === null && last.error === null) {
    return { kind: "close-interrupted-cycle", intention: node, cycleId: last.id };
  }
  if (last?.judgment === "SUCCESS")
    return { kind: "settle", intention: node, status: "VERIFIED", reason: last.judgmentReason ?? "verified" };
  if (last?.judgment === "FAILURE") {
    return {
      kind: "settle",
      intention: node,
      status: "FAILED",
      reason: last.judgmentReason ?? "the action failed",
    };
  }
  if (node.cycles.length >= limits.maxCyclesPerIntention) {
    const reason = `limit reached: max cycles per intention (${limits.maxCyclesPerIntention})`;
    return { kind: "settle", intention: node, status: "FAILED", reason };
  }
  const previousAttempts = node.cycles.map(
    (cycle) =>
      `${cycle.action.content} → ${cycle.judgment ?? "?"}: ${cycle.reflection ?? cycle.judgmentReason ?? ""}`,
  );
  return { kind: "act", intention: node, previousAttempts };
}

function verifiedReason(view: SessionView, root: IntentionView): string {
  const count = Object.values(view.intentions).filter(
    (intention) => intention.runId === root.runId && intention.status === "VERIFIED",
  ).length;
  return `all ${count} intentions verified`;
}
