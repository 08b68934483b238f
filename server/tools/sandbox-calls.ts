import { errorMessage } from "@/server/domain/errors";
import type { ExecResult } from "@/server/domain/sandbox-port";
import type { ToolOutput, ToolRuntime } from "./types";

/**
 * The tools' only way into the sandbox's exec: the runtime's limits applied, and a sandbox that
 * cannot run the command turned into a result the model can read instead of an exception.
 */
export async function execIn(
  runtime: ToolRuntime,
  command: string,
  options: {
    stdin?: string;
    maxOutputBytes?: number;
    timeoutMs?: number;
    onOutput?: (chunk: string) => void;
  } = {},
): Promise<ExecResult | { failure: ToolOutput & { ok: false } }> {
  try {
    return await runtime.sandbox.exec(command, {
      timeoutMs: options.timeoutMs ?? runtime.timeoutMs,
      maxOutputBytes: options.maxOutputBytes ?? runtime.maxOutputBytes,
      ...(runtime.env ? { env: runtime.env } : {}),
      ...(options.stdin !== undefined ? { stdin: options.stdin } : {}),
      ...(runtime.signal ? { signal: runtime.signal } : {}),
      ...(options.onOutput
        ? { onOutput: (_stream: string, chunk: string) => options.onOutput?.(chunk) }
        : {}),
    });
  } catch (error) {
    return {
      failure: {
        ok: false,
        code: "sandbox_error",
        message: `The sandbox could not run it: ${errorMessage(error)}`,
      },
    };
  }
}

/** stdout, then stderr on its own line when there is any: how a command's output reads. */
export function combinedOutput(result: Pick<ExecResult, "stdout" | "stderr">): string {
  const separator = result.stdout === "" || result.stdout.endsWith("\n") ? "" : "\n";
  return result.stdout + separator + result.stderr;
}

/** A command that exited non-zero (or timed out) as a tool failure with its output. */
export function commandFailure(result: ExecResult, what: string): ToolOutput & { ok: false } {
  const output = combinedOutput(result);
  if (result.aborted)
    return {
      ok: false,
      code: "stopped",
      message: `${what} was stopped by a person while it ran.`,
      output,
      exitCode: result.exitCode,
      timedOut: false,
      aborted: true,
    };
  if (result.timedOut)
    return {
      ok: false,
      code: "timeout",
      message: `${what} hit its time limit (${Math.round(result.durationMs / 1000)} s) and was killed.`,
      output,
      exitCode: result.exitCode,
      timedOut: true,
    };
  const detail = failureDetail(result.stderr);
  return {
    ok: false,
    code: what.startsWith("git") ? "git_failed" : "command_failed",
    message: `${what} failed with exit code ${result.exitCode}${detail ? `: ${detail}` : ""}.`,
    output,
    exitCode: result.exitCode,
    timedOut: false,
  };
}

/** Node's closing line after an uncaught error: it names the runtime, not what went wrong. */
const RUNTIME_BANNER = /^Node\.js v\d+\.\d+\.\d+$/;
const STACK_FRAME = /^at\s/;
const NAMES_AN_ERROR = /\b(error|err!|fatal|failed|not found|denied|refused)\b/i;

/**
 * The one stderr line that says why a command failed, for its message: the last line that names an
 * error (`Error: No compatible signature found…`, `npm ERR! …`), else the last line that is not a stack
 * frame or Node's version banner. The whole output stays in the result; this is only the summary.
 */
export function failureDetail(stderr: string): string | undefined {
  const lines = stderr
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !RUNTIME_BANNER.test(line) && !STACK_FRAME.test(line));
  const named = lines.findLast((line) => NAMES_AN_ERROR.test(line));
  return (named ?? lines.at(-1))?.slice(0, 300);
}

export function isFailure(
  value: ExecResult | { failure: ToolOutput },
): value is { failure: ToolOutput & { ok: false } } {
  return "failure" in value;
}

/** Marks output that a size cap cut, so the model knows it did not see everything. */
export function noteTruncation(output: string, truncated: boolean): string {
  return truncated ? `${output}\n[output truncated: narrow the request to see the rest]` : output;
}
