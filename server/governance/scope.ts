import picomatch from "picomatch";
import { resolveWorkspacePath, WORKSPACE_ROOT } from "@/server/domain/text/workspace-path";
import { protectionOf } from "./protected-paths";

/**
 * The scope guard's path logic (seed 003): a write is allowed only where the active intent's
 * `owned_scope` globs say, judged on the normalised path and, in the sandbox, on the real path after
 * symlinks. Everything here is lexical and pure except `checkPathAccess`, which takes the sandbox's
 * `realpath` as a port.
 */

/**
 * An owned_scope glob as written in active_intents.yaml, made relative to the workspace. Patterns that
 * could widen the scope instead of naming it (`!negations`, `..`, absolute paths elsewhere) match
 * nothing: a typo must not hand out the whole repository.
 */
export function normaliseScopePattern(pattern: string): string | null {
  let glob = pattern.trim();
  if (glob === "" || glob.startsWith("!") || glob.includes("\0")) return null;
  if (glob.startsWith(`${WORKSPACE_ROOT}/`)) glob = glob.slice(WORKSPACE_ROOT.length + 1);
  while (glob.startsWith("./")) glob = glob.slice(2);
  if (glob.startsWith("/") || glob.split("/").includes("..") || glob === "") return null;
  return glob;
}

/** `in`, `out`, or `case-only`: the path matches only when case is ignored. */
export type ScopeMatch = "in" | "out" | "case-only";

/**
 * Matches a path against owned_scope. Dot files count (`src/**` owns `src/.eslintrc`). A path that
 * matches only case-insensitively (`SRC/x` against `src/**`) is out of scope: on a case-insensitive
 * filesystem it could be the same file as something in scope, or the opposite, so it is not trusted.
 */
export function matchScope(path: string, ownedScope: readonly string[]): ScopeMatch {
  const resolved = resolveWorkspacePath(path);
  if (!resolved.ok || resolved.relative === ".") return "out";
  const patterns = ownedScope.map(normaliseScopePattern).filter((glob): glob is string => glob !== null);
  if (patterns.length === 0) return "out";
  if (picomatch(patterns, { dot: true, nonegate: true })(resolved.relative)) return "in";
  if (picomatch(patterns, { dot: true, nonegate: true, nocase: true })(resolved.relative)) return "case-only";
  return "out";
}

export function isInScope(path: string, ownedScope: readonly string[]): boolean {
  return matchScope(path, ownedScope) === "in";
}

export { resolveWorkspacePath } from "@/server/domain/text/workspace-path";
export { protectionOf } from "./protected-paths";

/**
 * Resolves symlinks the way `realpath -m` does: every existing component is followed, missing trailing
 * components are kept, so a file that does not exist yet still resolves. Rejects when it cannot.
 */
export type RealpathPort = (absolutePath: string) => Promise<string>;

export type PathAccessRefusal = "invalid-path" | "out-of-scope" | "symlink-escape" | "unresolvable";

export type PathAccess =
  | { ok: true; absolute: string; relative: string; protectedReason: string | null }
  | { ok: false; code: PathAccessRefusal; reason: string };

/**
 * The scope guard for one path: both the path as written and the real path behind it must be inside
 * the workspace and the owned scope, so a symlink in scope that points elsewhere is refused. Protection
 * is checked on both too (a link to `.git/hooks/pre-commit` is protected). A protected path is allowed
 * here; the approval gate asks for it.
 */
export async function checkPathAccess(
  path: string,
  ownedScope: readonly string[],
  realpath: RealpathPort,
  options: { cwd?: string } = {},
): Promise<PathAccess> {
  const lexical = resolveWorkspacePath(path, options);
  if (!lexical.ok) return { ok: false, code: "invalid-path", reason: lexical.reason };
  const lexicalMatch = matchScope(lexical.relative, ownedScope);
  if (lexicalMatch !== "in") return outOfScope(lexical.relative, lexicalMatch);
  let real: string;
  try {
    real = await realpath(lexical.absolute);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { ok: false, code: "unresolvable", reason: `could not resolve ${lexical.relative}: ${detail}` };
  }
  const resolved = resolveWorkspacePath(real);
  if (!resolved.ok || !real.startsWith("/"))
    return {
      ok: false,
      code: "symlink-escape",
      reason: `${lexical.relative} leads outside ${WORKSPACE_ROOT}`,
    };
  const realMatch = matchScope(resolved.relative, ownedScope);
  if (realMatch !== "in")
    return {
      ok: false,
      code: "symlink-escape",
      reason: `${lexical.relative} is a link to ${resolved.relative}, which is outside the owned scope`,
    };
  const protectedReason = protectionOf(lexical.relative) ?? protectionOf(resolved.relative);
  return { ok: true, absolute: resolved.absolute, relative: resolved.relative, protectedReason };
}

function outOfScope(relative: string, match: ScopeMatch): PathAccess {
  const why = match === "case-only" ? " (it matches only if letter case is ignored)" : "";
  return { ok: false, code: "out-of-scope", reason: `${relative} is outside the owned scope${why}` };
}
