import { missingProgram } from "@/server/contract/could-not-run";
import { countsVeto, describeCounts, type TestResults } from "@/server/domain/contract/test-results";
import type { Judgment } from "@/server/domain/vocabulary/session";

export interface CommandOutcome {
  exitCode: number | null;
  timedOut: boolean;
  error: string | null;
  output?: string;
  /** A test command's counts: a failed test, or no test run at all, is not a success (issue #15). */
  tests?: TestResults;
}

/** Output that contradicts a zero exit code (seed 000's failure indicators that are never benign). */
const HIDDEN_FAILURE = /Traceback \(most recent call last\)|\bpermission denied\b|\bsegmentation fault\b/i;

/**
 * The auto checkpoint's judgment of a COMMAND action (seed 000): the exit code decides — 0 is SUCCESS,
 * anything else FAILURE — unless the output shows a failure the exit code hid (PARTIAL). A timeout or
 * an action that could not run is FAILURE. A test command that exited 0 but ran no test, or whose
 * summary shows a failed test, is PARTIAL too. No exit code and no error (a run interrupted by a restart)
 * is UNCLEAR: nobody knows what happened.
 */
export function judgeCommand(outcome: CommandOutcome): { judgment: Judgment; reason: string } {
  if (outcome.error !== null)
    return { judgment: "FAILURE", reason: `the action could not run: ${outcome.error}` };
  if (outcome.timedOut)
    return { judgment: "FAILURE", reason: "the command hit its time limit and was killed" };
  if (outcome.exitCode === null) return { judgment: "UNCLEAR", reason: "no exit code was recorded" };
  if (outcome.exitCode !== 0) {
    const output = outcome.output ?? "";
    const missing = missingProgram(outcome.exitCode, output);
    const why = missing ? `: \`${missing}\` is not installed in this sandbox` : "";
    return { judgment: "FAILURE", reason: `exit code ${outcome.exitCode}${why}` };
  }
  const hidden = HIDDEN_FAILURE.exec(outcome.output ?? "");
  if (hidden) return { judgment: "PARTIAL", reason: `exit code 0, but the output shows "${hidden[0]}"` };
  const veto = outcome.tests ? countsVeto(outcome.tests) : null;
  if (veto) return { judgment: "PARTIAL", reason: `exit code 0, but ${veto}` };
  return { judgment: "SUCCESS", reason: "exit code 0" };
}

/** A short, capped reflection on a cycle that did not succeed, from its own evidence (no model needed). */
export function reflectOnFailure(outcome: CommandOutcome, output: string): string {
  const tail = output.trim().split("\n").slice(-5).join("\n").slice(-600);
  const what = judgeCommand({ ...outcome, output }).reason;
  // A test run's stack trace tail rarely says which tests failed; the counts do.
  const tests = outcome.tests;
  const failing =
    tests && tests.failingTests.length > 0
      ? ` ${describeCounts(tests)}; failing: ${tests.failingTests.join(", ")}.`
      : "";
  return tail
    ? `Failed (${what}).${failing} Last output:\n${tail}`
    : `Failed (${what}) with no output.${failing}`;
}
