import { shellQuote } from "@/server/domain/text/shell-quote";
import { resolveWorkspacePath } from "@/server/domain/text/workspace-path";

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
