import { z } from "zod";
import { shellQuote } from "@/server/domain/text/shell-quote";
import { resolveWorkspacePath } from "@/server/domain/text/workspace-path";

/** A path as the model writes it: relative to /workspace, or absolute inside it. */
export const WorkspacePathInput = z
  .string()
  .min(1, "a path is required")
  .max(4_096)
  .describe("A path relative to /workspace (e.g. `src/app.ts`), or an absolute path inside /workspace.");

/**
 * The absolute path, quoted for the shell. The dispatch's scope guard has already refused anything
 * that resolves outside the workspace; this throws if it is ever called without that check.
 */
export function quotedPath(path: string): string {
  const resolved = resolveWorkspacePath(path);
  if (!resolved.ok) throw new Error(`unchecked path reached a tool: ${resolved.reason}`);
  return shellQuote(resolved.absolute);
}

export function relativePath(path: string): string {
  const resolved = resolveWorkspacePath(path);
  return resolved.ok ? resolved.relative : path;
}
