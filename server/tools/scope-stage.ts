import { resolveWorkspacePath, WORKSPACE_ROOT } from "@/server/domain/text/workspace-path";
import { type ActiveIntent, scopeViolationError } from "@/server/governance/intent-gate";
import { checkPathAccess, type RealpathPort } from "@/server/governance/scope";

/**
 * The dispatch's scope guard: each path is resolved lexically and then inside the sandbox (symlinks),
 * before any gate judges it. Writes must stay inside the active intent's owned scope (both the path as
 * written and the real path behind it); reads must stay inside /workspace. The real paths are handed
 * on so the approval gate judges protection on them too.
 */
export async function guardPaths(
  paths: readonly string[],
  options: { writes: boolean; activeIntent: ActiveIntent | null; realpath: RealpathPort },
): Promise<{ ok: true; realPaths: string[] } | { ok: false; reason: string }> {
  const realPaths: string[] = [];
  for (const path of paths) {
    if (options.writes) {
      if (!options.activeIntent) return { ok: false, reason: "a write needs an active intent" };
      const access = await checkPathAccess(path, options.activeIntent.ownedScope, options.realpath);
      if (!access.ok) {
        const lexical = resolveWorkspacePath(path);
        const reason =
          access.code === "out-of-scope" && lexical.ok
            ? `${scopeViolationError(options.activeIntent.id, lexical.relative)} (${access.reason})`
            : `${path} is refused: ${access.reason}`;
        return { ok: false, reason };
      }
      realPaths.push(access.relative);
      continue;
    }
    const lexical = resolveWorkspacePath(path);
    if (!lexical.ok) return { ok: false, reason: `${path} is refused: ${lexical.reason}` };
    let real: string;
    try {
      real = await options.realpath(lexical.absolute);
    } catch (error) {
      return {
        ok: false,
        reason: `could not resolve ${lexical.relative}: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
    const inside = real.startsWith("/") ? resolveWorkspacePath(real) : null;
    if (!inside?.ok)
      return { ok: false, reason: `${lexical.relative} is refused: it leads outside ${WORKSPACE_ROOT}` };
    realPaths.push(inside.relative);
  }
  return { ok: true, realPaths };
}
