import type { Judgment } from "@/server/events/vocabulary";

export interface CommandOutcome {
  exitCode: number | null;
  timedOut: boolean;
  error: string | null;
}

/**
 * The auto checkpoint's judgment of a COMMAND action, by exit code (seed 000): 0 is SUCCESS, any
 * other code, a timeout, or an action that could not run is FAILURE. A missing exit code without an
 * error (for example a run interrupted by a server restart) is UNCLEAR: nobody knows what happened.
 */
export function judgeCommand(outcome: CommandOutcome): { judgment: Judgment; reason: string } {
  if (outcome.error !== null)
    return { judgment: "FAILURE", reason: `the action could not run: ${outcome.error}` };
  if (outcome.timedOut)
    return { judgment: "FAILURE", reason: "the command hit its time limit and was killed" };
  if (outcome.exitCode === null) return { judgment: "UNCLEAR", reason: "no exit code was recorded" };
  if (outcome.exitCode === 0) return { judgment: "SUCCESS", reason: "exit code 0" };
  return { judgment: "FAILURE", reason: `exit code ${outcome.exitCode}` };
}

/** A short, capped reflection on a failed cycle, from its own evidence (no model needed). */
export function reflectOnFailure(outcome: CommandOutcome, output: string): string {
  const tail = output.trim().split("\n").slice(-5).join("\n").slice(-600);
  const what = judgeCommand(outcome).reason;
  return tail ? `Failed (${what}). Last output:\n${tail}` : `Failed (${what}) with no output.`;
}
