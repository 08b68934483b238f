import { isTestCommand } from "@/server/capture/memory";
import { type Criterion, describeCriterion } from "@/server/domain/contract/criteria";
import { requestedCommand } from "@/server/domain/contract/requested-command";
import { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import type { CycleView, IntentionView } from "@/server/domain/session/view";
import { EVIDENCE_STRENGTH, type EvidenceKind } from "@/server/domain/vocabulary/session";
import { gateCommand } from "@/server/policy/approval/command-gate";

/**
 * Red before green (issue #15), pure: which checks may run before any work, and what a VERIFIED node
 * rests on. A check already green before the work proves nothing about the work; a check that could
 * not run before it gives no baseline (weaker evidence), never a red.
 */

/** The read-only reference: a command the default policy would run unasked only reads. */
const READ_ONLY = CheckpointPolicy.parse({ commands: "ask-unlisted" });

/** Whether running the check before the work could not change anything (or is the project's tests). */
export function safeToRunTwice(criterion: Criterion, intention: Pick<IntentionView, "id" | "what">): boolean {
  switch (criterion.kind) {
    case "FILE_EXISTS":
    case "FILE_CONTAINS":
    case "FUNCTION_EXISTS":
    case "LAYER_APPROPRIATE":
      return true;
    case "TESTS_PASS":
    case "GENERATED_TEST_PASSES":
      // The intention's own command ("run `make`") is the work itself: running it first would do it.
      if (criterion.command === requestedCommand(intention.what)) return false;
      return (
        isTestCommand(criterion.command) ||
        gateCommand(criterion.command, intention.id, READ_ONLY).decision === "approve"
      );
  }
}

/** The contract indexes to run at the baseline, and those left out (not safe to run twice). */
export function baselinePlan(intention: Pick<IntentionView, "id" | "what" | "contract">): {
  run: number[];
  skipped: number[];
} {
  const run: number[] = [];
  const skipped: number[] = [];
  intention.contract.forEach((criterion, index) => {
    (safeToRunTwice(criterion, intention) ? run : skipped).push(index);
  });
  return { run, skipped };
}

export type Evidence = { kind: EvidenceKind; reason: string } | { kind: null; reason: string };

const PEOPLE_ARE_NOT = new Set(["auto", "policy", "critic"]);

/**
 * What the leaf's last, successful cycle verified it with; `kind: null` when nothing that happened is
 * evidence (no check, or every check was already green before the work), with the reason in words.
 */
export function leafEvidence(
  intention: Pick<IntentionView, "what" | "contract" | "baseline"> & {
    contractBy?: Pick<NonNullable<IntentionView["contractBy"]>, "detectedTests"> | null;
  },
  last: Pick<CycleView, "checks" | "judgedBy" | "action" | "exitCode">,
): Evidence {
  const requested = requestedCommand(intention.what);
  const checks = last.checks ?? [];
  if (
    requested !== null &&
    checks.some(
      (check) =>
        check.passed && check.criterion.kind === "TESTS_PASS" && check.criterion.command === requested,
    )
  )
    return { kind: "ran-as-requested", reason: `\`${requested}\` ran exactly as requested and exited 0` };
  const person = last.judgedBy !== null && !PEOPLE_ARE_NOT.has(last.judgedBy) ? last.judgedBy : null;
  if (intention.contract.length === 0 || checks.length === 0) {
    if (person) return { kind: "accepted-by-person", reason: `accepted by ${person} (no check ran)` };
    return {
      kind: null,
      reason: "no check — not verified: nothing checkable was named for this intention, and no check ran",
    };
  }
  const baseline = new Map((intention.baseline?.results ?? []).map((entry) => [entry.index, entry.result]));
  const detected = new Set(intention.contractBy?.detectedTests ?? []);
  const red: Criterion[] = [];
  const unknown: Criterion[] = [];
  const green: Criterion[] = [];
  const unbaselinedFallback: Criterion[] = [];
  checks.forEach((check, index) => {
    if (!check.passed) return;
    const before = baseline.get(index);
    // The project's detected tests are a fallback: they count only when they were red first.
    if (!before || before.couldNotRun !== undefined)
      (detected.has(index) ? unbaselinedFallback : unknown).push(check.criterion);
    else if (before.passed) green.push(check.criterion);
    else red.push(check.criterion);
  });
  const names = (criteria: Criterion[]) => criteria.map(describeCriterion).join("; ");
  if (red.length > 0)
    return { kind: "red-to-green", reason: `red before the work, green after: ${names(red)}` };
  if (unknown.length > 0)
    return {
      kind: "green-after-no-baseline",
      reason: `green after the work, no baseline possible: ${names(unknown)}`,
    };
  if (person) return { kind: "accepted-by-person", reason: `accepted by ${person}` };
  if (unbaselinedFallback.length > 0)
    return {
      kind: null,
      reason: `no check — not verified: the project's detected tests (${names(unbaselinedFallback)}) passed after the work, but they could not run before it, so they show no red → green; it needs a check that was red first, or a person who accepts it`,
    };
  return {
    kind: null,
    reason: `not verified: every check was already green before any work (${names(green)}), so it is not evidence of this work; it needs a check that was red first, or a person who accepts it`,
  };
}

/** A parent rests on its children: the weakest of their kinds (null when one has none). */
export function weakestEvidence(children: readonly Pick<IntentionView, "evidence">[]): EvidenceKind | null {
  let weakest = 0;
  for (const child of children) {
    if (!child.evidence) return null;
    weakest = Math.max(weakest, EVIDENCE_STRENGTH.indexOf(child.evidence));
  }
  return EVIDENCE_STRENGTH[weakest] ?? null;
}
