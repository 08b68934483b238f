import { combinedOutput, commandFailure, execIn, isFailure, noteTruncation } from "./sandbox-calls";
import type { ToolOutput, ToolRuntime } from "./types";

/**
 * The git tools' runner. Each tool builds its argv from fixed words and validated values only, so no
 * input can smuggle in a flag: there is no `force`, `amend`, `--hard` or free-form arguments field in
 * any git tool's schema, and names may not start with `-`.
 */
export async function runGit<Data = never>(
  runtime: ToolRuntime,
  command: string,
  what: string,
  options: {
    stdin?: string;
    empty?: string;
    /** The tool's typed data from git's stdout, and the text the model reads when it differs. */
    shape?: (stdout: string) => { data: Data; stdout?: string };
  } = {},
): Promise<ToolOutput<Data>> {
  const result = await execIn(runtime, command, options.stdin === undefined ? {} : { stdin: options.stdin });
  if (isFailure(result)) return result.failure;
  if (result.exitCode !== 0 || result.timedOut) return commandFailure(result, what);
  const shaped = options.shape?.(result.stdout);
  const output = combinedOutput({ ...result, stdout: shaped?.stdout ?? result.stdout }).trimEnd();
  return {
    ok: true,
    output: noteTruncation(output === "" ? (options.empty ?? "(no output)") : output, result.truncated),
    ...(shaped ? { data: shaped.data } : {}),
  };
}
