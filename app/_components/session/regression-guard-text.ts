import type { CriterionResult } from "@/server/domain/contract/criteria";
import type { RunGuardView } from "@/server/domain/session/view";

/** The regression guard's line in words (regression-guard-line.tsx shows it; pure, so it is tested alone). */

/** One run of the guard in words: passed, failed (with counts and names), or could not run. */
export function guardOutcome(result: CriterionResult | null): { state: string; text: string } {
  if (!result) return { state: "pending", text: "not run yet" };
  if (result.couldNotRun !== undefined)
    return { state: "could-not-run", text: `could not run (${result.couldNotRun})` };
  const tests = result.tests;
  if (result.passed)
    return {
      state: "passed",
      text: tests ? `passed (${tests.passed} ${tests.passed === 1 ? "test" : "tests"})` : "passed",
    };
  if (!tests) return { state: "failed", text: "failed" };
  const names = tests.failingTests.length > 0 ? `: ${tests.failingTests.slice(0, 5).join(", ")}` : "";
  return { state: "failed", text: `failed (${tests.failed} of ${tests.total}${names})` };
}

/** The runs after the work in order, each repair cycle between the run that asked for it and the next. */
export function afterTheWork(guard: RunGuardView, runEnded = false): string {
  // A run that ended (stopped, or a repair cycle that failed its own check) runs the guard no more.
  const pending = runEnded ? "not run (the run ended before it)" : guardOutcome(null).text;
  const afters = guard.afters;
  // A guard that could not run before the work stands aside: no run after it, and none is pending.
  if (afters.length === 0 && guard.before?.couldNotRun !== undefined)
    return "after the work not run (nothing to compare with, so it cannot show a regression)";
  if (afters.length === 0) return `after the work ${pending}`;
  const parts = afters.map((after, index) => {
    const text = `${index === 0 ? "after the work" : "after the repair cycle"} ${guardOutcome(after).text}`;
    return index < guard.repairs.length ? `${text} → repair cycle` : text;
  });
  // A repair cycle given but not yet followed by its run.
  if (guard.repairs.length >= afters.length) parts.push(`after the repair cycle ${pending}`);
  return parts.join(" → ");
}
