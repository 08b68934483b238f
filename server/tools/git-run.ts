import { combinedOutput, commandFailure, execIn, isFailure, noteTruncation } from "./sandbox-calls";
import type { ToolOutput, ToolRuntime } from "./types";

/**
 * The git tools' runner. Each tool builds its argv from fixed words and validated values only, so no
 * input can smuggle in a flag: there is no `force`, `amend`, `--hard` or free-form arguments field in
 * any git tool's schema, and names may not start with `-`.
 */
export async function runGit(
  runtime: ToolRuntime,
  command: string,
  what: string,
  options: { stdin?: string; empty?: string } = {},
): Promise<ToolOutput> {
  const result = await execIn(runtime, command, options.stdin === undefined ? {} : { stdin: options.stdin });
  if (isFailure(result)) return result.failure;
  if (result.exitCode !== 0 || result.timedOut) return commandFailure(result, what);
  const output = combinedOutput(result).trimEnd();
  return {
    ok: true,
    output: noteTruncation(output === "" ? (options.empty ?? "(no output)") : output, result.truncated),
  };
}
