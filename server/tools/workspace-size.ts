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
