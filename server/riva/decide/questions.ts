import { type CriterionResult, describeCriterion } from "@/server/domain/contract/criteria";
import type {
  CheckpointAnswer,
  CheckpointProposal,
  IntegrationStatus,
} from "@/server/domain/events/checkpoint-schema";
import type { ApprovalView, CycleView, IntentionView, SessionView } from "@/server/domain/session/view";
import type { Judgment } from "@/server/domain/vocabulary/session";
import { describeGap, gapOf, gapReflection, judgeWithContract } from "./contract-judgment";
import { judgeCommand, reflectOnFailure } from "./judge";

/**
 * Seed 000's judgment questions as pure functions of the folded log: what the auto checkpoint proposes
 * (judge_action, verify_integration, review_reflection), and the answer a person gave, if any. The
 * same functions serve the auto path, so a proposal and an unattended verdict can never differ.
 */

const EXCERPT_CHARS = 1_500;

export type QuestionKind = "judgment" | "integration" | "reflection";

/** The auto checkpoint's judgment of a cycle from its recorded result (exit code, then the contract). */
export function autoJudgment(cycle: CycleView): { judgment: Judgment; reason: string } {
  const judged = judgeCommand({
    exitCode: cycle.exitCode,
    timedOut: cycle.timedOut,
    error: cycle.error,
    output: cycle.output ?? "",
  });
  if (judged.judgment === "SUCCESS" && cycle.checks) return judgeWithContract(cycle.checks);
  return judged;
}

/** What a person reads before judging: the end of the output, and the contract as checked. */
export function cycleEvidence(cycle: CycleView): string {
  const output = (cycle.error ?? cycle.output ?? "").trim();
  const excerpt = output.length > EXCERPT_CHARS ? `…${output.slice(-EXCERPT_CHARS)}` : output;
  const lines = [
    `$ ${cycle.action.content}`,
    `exit code ${cycle.exitCode ?? "none"}${cycle.timedOut ? " (timed out)" : ""}`,
    excerpt || "(no output)",
  ];
  if (cycle.checks) lines.push(...checkLines(cycle.checks));
  return lines.join("\n");
}

function checkLines(results: readonly CriterionResult[]): string[] {
  return results.map(
    (result) =>
      `${result.passed ? "✓" : result.couldNotRun !== undefined ? "⊘" : "✗"} ${describeCriterion(result.criterion)}: ${firstLine(result)}`,
  );
}

function firstLine(result: CriterionResult): string {
  return result.evidence.split("\n")[0] ?? "";
}

/** The reflection on a cycle that did not succeed: the gap contract, or the end of its output. */
export function proposedReflection(
  cycle: CycleView,
  judged: Pick<CycleView, "judgment" | "judgedBy" | "judgmentReason"> = cycle,
): string {
  const gap = gapOf(cycle.checks ?? []);
  if (gap.length > 0) return gapReflection(gap);
  const outcome = { exitCode: cycle.exitCode, timedOut: cycle.timedOut, error: cycle.error };
  const reflection = reflectOnFailure(outcome, cycle.error ?? cycle.output ?? "");
  if (judged.judgedBy === null || judged.judgedBy === "auto") return reflection;
  const why = judged.judgmentReason ? ` (${judged.judgmentReason})` : "";
  return `Judged ${judged.judgment} by ${judged.judgedBy}${why}. ${reflection}`;
}

/** verify_integration, auto checkpoint: every child verified, and the parent's own contract holds. */
export function integrationVerdict(
  intention: IntentionView,
  children: readonly IntentionView[],
): { status: IntegrationStatus; reason: string; evidence: string } {
  const results = intention.integrationChecks ?? [];
  const gap = gapOf(results);
  const count = children.length;
  const evidence = [
    ...children.map((child) => `✓ child ${child.position + 1}: ${child.what}`),
    ...checkLines(results),
  ].join("\n");
  if (intention.contract.length === 0)
    return {
      status: "VERIFIED",
      reason: `integration check passed: all ${count} children verified`,
      evidence,
    };
  if (gap.length === 0) {
    const reason = `integration check passed: all ${count} children verified and ${results.length} contract criteria hold`;
    return { status: "VERIFIED", reason, evidence };
  }
  const notRun = gap.filter((result) => result.couldNotRun !== undefined);
  const reason =
    notRun.length > 0
      ? `integration check could not run: ${notRun.map((result) => result.couldNotRun).join("; ")}`
      : `integration check failed: all ${count} children verified, but ${describeGap(gap)} does not hold`;
  return { status: "FAILED", reason, evidence };
}

/** The answered approval of `kind` for this intention (and cycle), if a person answered one. */
export function answeredQuestion(
  view: SessionView,
  intention: Pick<IntentionView, "id" | "runId">,
  kind: QuestionKind,
  cycleId: string | null = null,
): (ApprovalView & { answer: CheckpointAnswer }) | undefined {
  return Object.values(view.approvals).find(
    (approval): approval is ApprovalView & { answer: CheckpointAnswer } =>
      approval.runId === intention.runId &&
      approval.kind === kind &&
      approval.intentionId === intention.id &&
      approval.answer !== null &&
      (cycleId === null || cycleIdOf(approval.proposal) === cycleId),
  );
}

function cycleIdOf(proposal: CheckpointProposal | null): string | null {
  return proposal && "cycleId" in proposal ? proposal.cycleId : null;
}

/** How a person's verdict reads in the log: confirmed, or overridden and why. */
export function describeAnswer(approval: ApprovalView, proposed: string, chosen: string): string {
  const who = approval.decidedBy ?? "a user";
  const why = approval.reason ? `: ${approval.reason}` : "";
  return proposed === chosen
    ? `${who} confirmed ${chosen}${why}`
    : `${who} overrode ${proposed} with ${chosen}${why}`;
}
