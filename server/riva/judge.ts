import { missingProgram } from "@/server/contract/could-not-run";
import type { Judgment } from "@/server/events/vocabulary";

export interface CommandOutcome {
  exitCode: number | null;
  timedOut: boolean;
  error: string | null;
  output?: string;
}

/** Output that contradicts a zero exit code (seed 000's failure indicators that are never benign). */
const HIDDEN_FAILURE = /Traceback \(most recent call last\)|\bpermission denied\b|\bsegmentation fault\b/i;

/**
 * The auto checkpoint's judgment of a COMMAND action (seed 000): the exit code decides — 0 is SUCCESS,
 * anything else FAILURE — unless the output shows a failure the exit code hid (PARTIAL). A timeout or
 * an action that could not run is FAILURE. No exit code and no error (a run interrupted by a restart)
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
  return { judgment: "SUCCESS", reason: "exit code 0" };
}

/** A short, capped reflection on a cycle that did not succeed, from its own evidence (no model needed). */
export function reflectOnFailure(outcome: CommandOutcome, output: string): string {
  const tail = output.trim().split("\n").slice(-5).join("\n").slice(-600);
  const what = judgeCommand({ ...outcome, output }).reason;
  return tail ? `Failed (${what}). Last output:\n${tail}` : `Failed (${what}) with no output.`;
}
