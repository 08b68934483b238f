import { describeCriterion } from "@/server/domain/contract/criteria";
import type { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import type { DeliveryState } from "@/server/domain/policy/reasoning-outcome";
import { deliveryChecked, verificationReported } from "@/server/domain/session/fold-qa";
import type { IntentionView, QaReportView, RunView, SessionView } from "@/server/domain/session/view";
import type { QaInput } from "@/server/model/types";
import { attemptedAction } from "./tool-action";

/**
 * The pure half of advisory QA and the delivery gate in the loop (seed 001 §2.3, §2.5): when a review
 * is due, what the reviewer is given, and the capped "QA said" block a later act turn reads. The
 * engine's side (the model call, the events) is `perform/qa.ts`.
 */

export type QaSettings = Pick<CheckpointPolicy, "qaReview" | "qaFeedback">;
export const QA_OFF: QaSettings = { qaReview: "off", qaFeedback: false };

export type QaStep =
  /** An intention is VERIFIED (or the root ended) and QA is on: a read-only reviewer reports on it. */
  | { kind: "qa-review"; intention: IntentionView }
  /** The root's verification reports into the delivery gate, once, before the run ends. */
  | { kind: "report-delivery"; intention: IntentionView; state: DeliveryState; reason: string }
  /** Last before the run ends: the run's model judges whether the request is delivered (no tools). */
  | { kind: "delivery-check"; intention: IntentionView };

/** A review is due once per intention, when QA is on; a review that could not be made counts too. */
export function qaReviewDue(intention: IntentionView, qa: QaSettings): boolean {
  return qa.qaReview === "on" && intention.qaReports.length === 0;
}

/**
 * Before a run whose root settled ends: the verification's word goes into the gate (DONE when the
 * root verified, NEEDS_WORK when it failed), then the root gets its review, then the delivery check.
 * Null: nothing is left.
 */
export function beforeRunEnds(
  run: RunView,
  root: IntentionView,
  qa: QaSettings,
  reason: string,
  options: { outOfTime?: boolean } = {},
): QaStep | null {
  if (!verificationReported(run)) {
    const state = root.status === "VERIFIED" ? "DONE" : "NEEDS_WORK";
    return { kind: "report-delivery", intention: root, state, reason };
  }
  if (options.outOfTime) return null;
  if (qaReviewDue(root, qa)) return { kind: "qa-review", intention: root };
  // After the review, so the check can read its verdict; once per run, whatever it answered.
  return deliveryChecked(run) ? null : { kind: "delivery-check", intention: root };
}

const MAX_WORK_LINES = 12;

/** What the reviewer reads about an intention, from the folded log alone. */
export function qaInputFor(view: SessionView, intention: IntentionView): Omit<QaInput, "request"> {
  const run = view.runs[intention.runId];
  const root = run?.rootId ? view.intentions[run.rootId] : undefined;
  const cycles = intention.cycles.slice(-MAX_WORK_LINES);
  const work = cycles.map(
    (cycle) =>
      `${attemptedAction(cycle.action)} → ${cycle.judgment ?? "not judged"}: ${(cycle.judgmentReason ?? "").slice(0, 300)}`,
  );
  const checks =
    intention.integrationChecks ?? intention.cycles.findLast((cycle) => cycle.checks)?.checks ?? [];
  for (const check of checks)
    work.push(`contract: ${describeCriterion(check.criterion)}: ${check.passed ? "passed" : "FAILED"}`);
  for (const childId of intention.childIds) {
    const child = view.intentions[childId];
    if (child) work.push(`child "${child.what.slice(0, 200)}": ${child.status}`);
  }
  return {
    task: root?.what ?? intention.what,
    what: intention.what,
    acceptance: intention.acceptance,
    outcome: `${intention.status}${intention.reason ? `: ${intention.reason.slice(0, 1_000)}` : ""}`,
    work,
    attempts: {
      total: intention.cycles.length,
      missed: intention.cycles.filter((cycle) => cycle.judgment !== null && cycle.judgment !== "SUCCESS")
        .length,
    },
    criteria: { total: checks.length, passed: checks.filter((check) => check.passed).length },
  };
}

/** The most a "QA said" block may add to one act request. */
export const QA_NOTES_CAP = 1_500;

function describeReport(what: string, entry: QaReportView): string | null {
  const report = entry.report;
  if (!report || report.findings.length === 0) return null;
  const findings = report.findings
    .filter((finding) => finding.severity !== "info")
    .map(
      (finding) =>
        `  - ${finding.severity}${finding.file ? ` ${finding.file}` : ""}: ${finding.message}${finding.suggestion ? ` (suggestion: ${finding.suggestion})` : ""}`,
    );
  if (findings.length === 0) return null;
  return [`- on "${what.slice(0, 160)}" (${report.verdict}):`, ...findings].join("\n");
}

/**
 * The "QA said" block for the next act turn, when the project feeds QA back: reports on this run's
 * other intentions (siblings verified before it) and on the session's previous run (the task being
 * tried again), newest first, capped at QA_NOTES_CAP characters. Undefined: nothing to say.
 */
export function qaNotesFor(view: SessionView, intention: IntentionView, qa: QaSettings): string | undefined {
  if (!qa.qaFeedback) return undefined;
  const runIndex = view.runOrder.indexOf(intention.runId);
  const previousRun = runIndex > 0 ? view.runOrder[runIndex - 1] : undefined;
  const sources = Object.values(view.intentions).filter(
    (candidate) =>
      candidate.id !== intention.id &&
      (candidate.runId === intention.runId || candidate.runId === previousRun) &&
      candidate.qaReports.length > 0,
  );
  const blocks = sources
    .map((source) => ({
      seq: source.qaReports.at(-1)?.seq ?? 0,
      text: describeReport(source.what, source.qaReports.at(-1) as QaReportView),
    }))
    .filter((entry): entry is { seq: number; text: string } => entry.text !== null)
    .sort((a, b) => b.seq - a.seq)
    .map((entry) => entry.text);
  if (blocks.length === 0) return undefined;
  const joined = blocks.join("\n");
  return joined.length <= QA_NOTES_CAP ? joined : `${joined.slice(0, QA_NOTES_CAP - 1)}…`;
}
