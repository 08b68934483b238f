import type { ExecResult } from "@/server/domain/sandbox-port";

/**
 * A check that could not run proves nothing either way: it is never a pass and never "red". These are
 * the shapes of "could not run" a shell shows: exit 127 (a program is missing), exit 126 (found but
 * not executable), "command not found" in the output, and a time limit. A sandbox that could not run
 * the command at all (an exception, a denied or unanswered gate) is described by its caller.
 */

/** bash: `bash: line 1: npm: command not found`; make and others: `make: tsc: command not found`. */
const COMMAND_NOT_FOUND = /(?:^|[\s:])([^\s:'"`]+): command not found\b/m;
/** dash (`sh -c`): `sh: 1: pytest: not found`, trusted only with exit 127. */
const SH_NOT_FOUND = /(?:^|[\s:])([^\s:'"`]+): not found\s*$/m;

/** Why the check did not run, in words a person reads on the node; null when it ran (pass or fail). */
export function couldNotRunReason(
  command: string,
  result: Pick<ExecResult, "exitCode" | "stdout" | "stderr" | "timedOut">,
): string | null {
  if (result.timedOut) return `\`${command}\` hit its time limit and was killed before it finished`;
  if (result.exitCode === 0) return null;
  const output = `${result.stderr}\n${result.stdout}`;
  const missing =
    COMMAND_NOT_FOUND.exec(output)?.[1] ??
    (result.exitCode === 127 ? SH_NOT_FOUND.exec(output)?.[1] : undefined);
  if (missing) return `\`${missing}\` is not installed in this sandbox`;
  if (result.exitCode === 127)
    return `\`${command}\` could not start: a program it needs is missing (exit 127)`;
  if (result.exitCode === 126)
    return `\`${command}\` could not be executed: not executable or permission denied (exit 126)`;
  return null;
}

/** The program a shell said it could not find, if its output says so (`npm` of "npm: command not found"). */
export function missingProgram(exitCode: number, output: string): string | null {
  if (exitCode === 0) return null;
  return (
    COMMAND_NOT_FOUND.exec(output)?.[1] ??
    (exitCode === 127 ? SH_NOT_FOUND.exec(output)?.[1] : undefined) ??
    null
  );
}
