import { capEnd } from "../text/cap";
import type { CriterionResult } from "./criteria";
import { requestedCommand } from "./requested-command";

/**
 * The regression guard, pure: a run's root may be VERIFIED by its own check (``sum.js` contains
 * `a + b` ``, red → green) while the work broke the project's tests. So when discovery detected the
 * project's test command, that command runs once before any work of the run and once more just
 * before the root would settle VERIFIED. It never verifies anything (it is not the root's evidence);
 * it can only stop a VERIFIED: a suite that was green before and is red after, new failing tests, more
 * failures than before, or a suite that ran before and could not run after. When in doubt (it could
 * not run before the work) it says so and stands aside: there is nothing to compare with.
 */

/** The command the guard runs for a run, or null when it has none. */
export function guardCommandFor(
  run: { mode: string; intent: { codebase?: { testCommand: string | null } | null } | null },
  root: { what: string; contract: readonly { kind: string; command?: string }[] },
): string | null {
  if (run.mode !== "agent") return null;
  const command = run.intent?.codebase?.testCommand ?? null;
  if (!command) return null;
  // A root that is itself a command ("run `make`") is verified by running exactly it, as asked: the
  // person chose that command and its effects, and a guard would add a click to every such task.
  if (requestedCommand(root.what) !== null) return null;
  // A root whose own contract runs the same command needs no second run of it.
  if (root.contract.some((criterion) => "command" in criterion && criterion.command === command)) return null;
  return command;
}

export type GuardVerdict =
  | { kind: "none"; note: string }
  | { kind: "held"; note: string }
  | { kind: "regression"; reason: string };

function failing(result: CriterionResult): string {
  const tests = result.tests;
  if (!tests) return "it failed";
  const names = tests.failingTests.length > 0 ? `: ${tests.failingTests.slice(0, 5).join(", ")}` : "";
  return `${tests.failed} failed${names}`;
}

/** Why a guard that could not run before the work has nothing to compare with (and is not run again). */
export function guardStoodAside(
  command: string,
  why: string,
  setup?: { command: string; status: "ok" | "failed" | "skipped" } | null,
): string {
  // The usual cause on a new project: its setup (installing dependencies) did not run, so the test
  // runner is missing. Said here, where the person reads why the tests did not count.
  const missingSetup =
    setup && setup.status !== "ok"
      ? `; the project's setup command (\`${setup.command}\`) ${setup.status === "skipped" ? "was skipped" : "failed"} in this session, so its dependencies may be missing (see Network and setup)`
      : "";
  return `the project's tests (\`${command}\`) could not run before the work (${why}), so they cannot show a regression${missingSetup}`;
}

/** What the guard's two runs say about the work between them. */
export function guardVerdict(command: string, before: CriterionResult, after: CriterionResult): GuardVerdict {
  const named = `the project's tests (\`${command}\`)`;
  if (before.couldNotRun !== undefined)
    return { kind: "none", note: guardStoodAside(command, before.couldNotRun) };
  if (after.couldNotRun !== undefined)
    return {
      kind: "regression",
      reason: `regression guard: ${named} ran before the work but could not run after it (${after.couldNotRun})`,
    };
  if (after.passed)
    return { kind: "held", note: `${named} pass after the work${before.passed ? ", as before it" : ""}` };
  if (before.passed)
    return {
      kind: "regression",
      reason: `regression guard: ${named} passed before the work and fail after it (${failing(after)})`,
    };
  // Red before and after: only what got worse is the work's.
  const was = before.tests;
  const now = after.tests;
  if (was && now) {
    const known = new Set(was.failingTests);
    const fresh = now.failingTests.filter((name) => !known.has(name));
    if (fresh.length > 0 || now.failed > was.failed)
      return {
        kind: "regression",
        reason: `regression guard: ${named} fail after the work with more than before (${was.failed} failed before; after: ${failing(after)}${fresh.length > 0 ? `; newly failing: ${fresh.slice(0, 5).join(", ")}` : ""})`,
      };
    return {
      kind: "held",
      note: `${named} failed before the work and still fail after it, with no new failure (${now.failed} failed)`,
    };
  }
  return {
    kind: "held",
    note: `${named} failed before the work and after it; without test counts they cannot show whether it got worse`,
  };
}

/**
 * Repair cycles a run's root gets when the guard's run after the work shows a regression: one, like
 * an engineer who looks at the failing tests once before giving up. Recorded on the guard's "before"
 * event, so a run resumed under another version keeps the number it started with.
 */
export const GUARD_REPAIRS = 1;

const REPAIR_REASON_CHARS = 1_500;

/** What the root's repair cycle is asked to do, from the regression the guard saw (bounded text). */
export function guardRepairReason(regression: string): string {
  return capEnd(
    `${regression}. Look at the failing tests and fix what the work broke, keeping the task itself done: its own check must pass again, and the project's tests run again after this cycle.`,
    REPAIR_REASON_CHARS,
  );
}

/** A second regression, with no repair left: the reason names every run after the work. */
export function guardFailedAfterRepairs(regressions: readonly string[]): string {
  const [latest, ...earlier] = [...regressions].reverse();
  if (!latest) return "regression guard: no run after the work";
  if (earlier.length === 0) return latest;
  const before = earlier
    .reverse()
    .map((reason, index) => `run ${index + 1} after the work: ${reason.replace(/^regression guard: /, "")}`);
  return capEnd(
    `${latest}, after ${earlier.length} repair cycle${earlier.length === 1 ? "" : "s"} (${before.join("; ")})`,
    3_000,
  );
}
