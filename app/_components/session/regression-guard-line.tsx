import type { CriterionResult } from "@/server/domain/contract/criteria";
import type { RunGuardView } from "@/server/domain/session/view";

/** One run of the guard in words: passed, failed (with counts and names), or could not run. */
function outcome(result: CriterionResult | null): { state: string; text: string } {
  if (!result) return { state: "pending", text: "not run yet" };
  if (result.couldNotRun !== undefined)
    return { state: "could-not-run", text: `could not run (${result.couldNotRun})` };
  const tests = result.tests;
  if (result.passed) return { state: "passed", text: tests ? `passed (${tests.passed} tests)` : "passed" };
  if (!tests) return { state: "failed", text: "failed" };
  const names = tests.failingTests.length > 0 ? `: ${tests.failingTests.slice(0, 5).join(", ")}` : "";
  return { state: "failed", text: `failed (${tests.failed} of ${tests.total}${names})` };
}

/** The runs after the work in order, each repair cycle between the run that asked for it and the next. */
function afterTheWork(guard: RunGuardView): string {
  const afters = guard.afters;
  if (afters.length === 0) return `after the work ${outcome(null).text}`;
  const parts = afters.map((after, index) => {
    const text = `${index === 0 ? "after the work" : "after the repair cycle"} ${outcome(after).text}`;
    return index < guard.repairs.length ? `${text} → repair cycle` : text;
  });
  // A repair cycle given but not yet followed by its run.
  if (guard.repairs.length >= afters.length) parts.push(`after the repair cycle ${outcome(null).text}`);
  return parts.join(" → ");
}

/**
 * The regression guard on the run's root, live and in the replay: the project's tests before any work
 * and after it — and, when the first run after the work showed a regression, the repair cycle the
 * root got and the run after it (only the latest run counts). It only ever stops a VERIFIED, so it is
 * shown apart from the node's evidence.
 */
export function RegressionGuardLine({ guard }: { guard: RunGuardView | undefined }) {
  if (!guard) return null;
  const before = outcome(guard.before);
  const after = outcome(guard.after);
  const regression =
    before.state === "passed" && (after.state === "failed" || after.state === "could-not-run");
  return (
    <div
      className={regression ? "error small" : "muted small"}
      data-testid="regression-guard"
      data-before={before.state}
      data-after={after.state}
      data-repairs={guard.repairs.length}
    >
      regression guard <code>{guard.command}</code>: before any work {before.text}; {afterTheWork(guard)}
    </div>
  );
}
