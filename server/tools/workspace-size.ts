import { quotedPath } from "./paths";
import { execIn, isFailure } from "./sandbox-calls";
import type { ToolOutput, ToolRuntime } from "./types";

/**
 * The /workspace size cap for writes: a write that would make the workspace larger than the cap is
 * refused with a clear error, before anything is written. Measured with `du` in the sandbox (the
 * replaced file's old size is subtracted, so rewriting a file in place never counts twice).
 */
export async function refuseIfOverCap(
  runtime: ToolRuntime,
  path: string,
  newBytes: number,
): Promise<(ToolOutput & { ok: false }) | null> {
  const cap = runtime.workspaceMaxBytes;
  if (cap === null) return null;
  const file = quotedPath(path);
  const result = await execIn(
    runtime,
    `du -sb /workspace 2>/dev/null | cut -f1; if [ -f ${file} ]; then stat -c %s -- ${file}; else echo 0; fi`,
  );
  if (isFailure(result)) return result.failure;
  const [used, existing] = result.stdout.trim().split("\n").map(Number);
  if (used === undefined || existing === undefined || !Number.isFinite(used) || !Number.isFinite(existing))
    // Fail closed: a workspace whose size cannot be measured gets no new bytes.
    return {
      ok: false,
      code: "workspace_full",
      message: "The workspace size could not be measured, so nothing was written.",
    };
  const after = used - existing + newBytes;
  if (after <= cap) return null;
  return {
    ok: false,
    code: "workspace_full",
    message: `Writing ${newBytes} bytes would make /workspace ${megabytes(after)} MB, over its ${megabytes(cap)} MB cap (ARBOR_WORKSPACE_MAX_MB). Delete files or write less.`,
  };
}

function megabytes(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1);
}

/**
 * After a command: when /workspace is over its cap, the command fails (workspace_full) with its own
 * output and what to do. Docker's `--storage-opt size` needs xfs project quotas and these hosts run
 * overlay2 on ext4, so the cap is enforced by measuring (`du`), not by the kernel: a command can
 * overshoot while it runs (the container's memory and pids limits still hold), but it never succeeds
 * over the cap, so work that needs more space can never be judged done. A workspace that cannot be
 * measured fails closed, like a write.
 */
export async function workspaceOverCap(
  runtime: ToolRuntime,
  output: string,
  exitCode: number | null,
): Promise<(ToolOutput & { ok: false }) | null> {
  const cap = runtime.workspaceMaxBytes;
  if (cap === null) return null;
  const { signal: _ignored, onOutput: _alsoIgnored, ...quiet } = runtime;
  const result = await execIn(quiet, "du -sb /workspace 2>/dev/null | cut -f1");
  const used = isFailure(result) ? Number.NaN : Number(result.stdout.trim() || Number.NaN);
  if (Number.isFinite(used) && used <= cap) return null;
  const message = Number.isFinite(used)
    ? `The command left /workspace at ${megabytes(used)} MB, over this project's ${megabytes(cap)} MB cap. Delete files it made (build outputs, caches) before going on.`
    : "The workspace size could not be measured after the command, so it does not count as done.";
  return { ok: false, code: "workspace_full", message, output, exitCode };
}
