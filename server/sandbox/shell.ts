import "server-only";
import path from "node:path";
import { SandboxError } from "./types";

/**
 * Pure helpers for what runs inside the container. Commands are passed to Docker as an argv array
 * (no host shell in between), so the user's command string reaches bash verbatim as one argument.
 */

export const WORKSPACE_DIR = "/workspace";
/** Grace between `timeout`'s TERM and its KILL, for commands that ignore TERM. */
export const KILL_AFTER_MS = 2_000;

/**
 * A path inside the container: relative paths resolve against /workspace, absolute ones stay where they
 * point (the sandbox may read `/tmp`); the result is normalised (no `..` left in it). Confining a path
 * to the workspace is the scope guard's `resolveWorkspacePath` (governance/workspace-path.ts), a policy
 * that runs before a call reaches the sandbox.
 */
export function resolveContainerPath(target: string): string {
  if (target.includes("\0")) throw new SandboxError("invalid_argument", "A path cannot contain a NUL byte.");
  return path.posix.resolve(WORKSPACE_DIR, target);
}

/** `timeout` takes fractional seconds; 0 would mean "no limit", so anything below 1 ms is refused. */
export function formatTimeout(ms: number): string {
  if (!Number.isFinite(ms) || ms < 1)
    throw new SandboxError("invalid_argument", `Invalid timeout: ${ms} ms.`);
  return `${Number((ms / 1000).toFixed(3))}s`;
}

// $0 is the tag (so the process can be found by `pgrep -f`), $1 the directory, $2 the limit, $3 the
// command. `exec` makes `timeout` take the wrapper's pid; `timeout` leads its own process group and
// signals the whole group, so children the command started die with it.
const EXEC_WRAPPER = `cd -- "$1" || exit 1; exec timeout --kill-after=${KILL_AFTER_MS / 1000}s "$2" bash -c "$3" "$0"`;

export function buildExecArgv(input: {
  command: string;
  cwd: string;
  timeoutMs: number;
  tag: string;
}): string[] {
  return ["bash", "-c", EXEC_WRAPPER, input.tag, input.cwd, formatTimeout(input.timeoutMs), input.command];
}

/**
 * Kills the process group of the command carrying `tag`. The pattern brackets the first letter so it
 * does not match the killer's own command line.
 */
export function buildKillArgv(tag: string): string[] {
  const pattern = `[${tag.slice(0, 1)}]${tag.slice(1)}`;
  const script = `for p in $(pgrep -f -- "$1"); do kill -KILL -- "-$p" "$p" 2>/dev/null; done; exit 0`;
  return ["bash", "-c", script, "arbor-kill", pattern];
}

/**
 * Ends every tagged command (all of `arbor-exec-*`) and prints `<pid> <seconds running>` for each
 * process it killed. The bracket keeps the pattern from matching this script's own command line.
 */
export function buildEndLeftoversArgv(): string[] {
  const script =
    'for p in $(pgrep -f -- "$1"); do t=$(ps -o etimes= -p "$p" 2>/dev/null | tr -d " "); [ -n "$t" ] || t=0; ' +
    'if kill -0 "$p" 2>/dev/null; then kill -KILL -- "-$p" 2>/dev/null; kill -KILL "$p" 2>/dev/null; ' +
    'echo "$p $t"; fi; done; exit 0';
  return ["bash", "-c", script, "arbor-end-leftovers", "[a]rbor-exec-"];
}

/** Reads what buildEndLeftoversArgv printed: how many processes, and the longest running time. */
export function parseEndedLeftovers(stdout: string): { ended: number; ranMs: number | null } {
  const seconds = stdout
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter((parts) => parts.length === 2 && /^\d+$/.test(parts[0] ?? "") && /^\d+$/.test(parts[1] ?? ""))
    .map((parts) => Number(parts[1]));
  return { ended: seconds.length, ranMs: seconds.length === 0 ? null : Math.max(...seconds) * 1000 };
}

/** Docker container names allow [a-zA-Z0-9][a-zA-Z0-9_.-]+; session ids must fit in one. */
export function containerNameFor(sessionId: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/.test(sessionId)) {
    throw new SandboxError(
      "invalid_argument",
      `Invalid session id for a sandbox: ${JSON.stringify(sessionId)}.`,
    );
  }
  return `arbor-session-${sessionId}`;
}
