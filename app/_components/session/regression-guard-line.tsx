import type { CriterionResult } from "@/server/domain/contract/criteria";
import type { RunGuardView } from "@/server/domain/session/view";

/** One run of the guard in words: passed, failed (with counts and names), or could not run. */
function outcome(result: CriterionResult | null): { state: string; text: string } {
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

/**
 * The regression guard on the run's root, live and in the replay: the project's tests before any work
 * and after it. It only ever stops a VERIFIED (green before, red after), so it is shown apart from the
 * node's evidence.
 */
export function RegressionGuardLine({ guard }: { guard: RunGuardView | undefined }) {
  if (!guard) return null;
  const before = outcome(guard.before);
  // A guard that could not run before the work stands aside: no run after it, and none is pending.
  const after =
    !guard.after && before.state === "could-not-run"
      ? { state: "stood-aside", text: "not run (nothing to compare with, so it cannot show a regression)" }
      : outcome(guard.after);
  const regression =
    before.state === "passed" && (after.state === "failed" || after.state === "could-not-run");
  return (
    <div
      className={regression ? "error small" : "muted small"}
      data-testid="regression-guard"
      data-before={before.state}
      data-after={after.state}
    >
      regression guard <code>{guard.command}</code>: before any work {before.text}; after the work{" "}
      {after.text}
    </div>
  );
}
