/**
 * Lexical path normalisation for the sandbox's workspace: no filesystem access, so it can run before
 * anything touches the container and works for files that do not exist yet.
 */

export const WORKSPACE_ROOT = "/workspace";

export type ResolvedPath =
  | {
      ok: true;
      /** `/workspace/src/a.ts` */
      absolute: string;
      /** `src/a.ts`; `.` for the workspace itself. What owned_scope globs are matched against. */
      relative: string;
    }
  | { ok: false; reason: string };

// Percent-encoded dots, slashes and backslashes are never decoded by the filesystem, but a path that
// contains them is an attempt to get past some other layer that might decode; refuse it outright.
const ENCODED_SEPARATOR = /%(2e|2f|5c)/i;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters in a path are refused.
const CONTROL = /[\u0000-\u001F\u007F]/;

/**
 * POSIX normalisation against `cwd`: `.`, `..` and repeated slashes are resolved without touching the
 * filesystem; the result must stay inside the workspace. Backslashes, control characters (NUL first)
 * and percent-encoded separators are refused, and so is a path whose Unicode compatibility form (e.g.
 * fullwidth `．．／`) would resolve outside.
 */
export function resolveWorkspacePath(
  path: string,
  options: { cwd?: string; root?: string } = {},
): ResolvedPath {
  const root = options.root ?? WORKSPACE_ROOT;
  const cwd = options.cwd ?? root;
  if (path.includes("\0")) return { ok: false, reason: "the path contains a NUL byte" };
  if (path.trim() === "") return { ok: false, reason: "the path is empty" };
  if (CONTROL.test(path)) return { ok: false, reason: "the path contains control characters" };
  if (path.includes("\\")) return { ok: false, reason: "the path contains a backslash" };
  if (ENCODED_SEPARATOR.test(path))
    return { ok: false, reason: "the path contains percent-encoded separators" };
  if (!cwd.startsWith("/")) return { ok: false, reason: "the working directory is not absolute" };
  const againstCwd = (p: string) => normalise(p.startsWith("/") ? p : `${cwd}/${p}`);
  const absolute = againstCwd(path);
  for (const candidate of [absolute, againstCwd(path.normalize("NFKC"))]) {
    if (!isInside(candidate, root)) return { ok: false, reason: `${path} resolves outside ${root}` };
  }
  const relative = absolute === root ? "." : absolute.slice(root.length + 1);
  return { ok: true, absolute, relative };
}

function normalise(absolutePath: string): string {
  const stack: string[] = [];
  for (const segment of absolutePath.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") stack.pop();
    else stack.push(segment);
  }
  return `/${stack.join("/")}`;
}

function isInside(absolutePath: string, root: string): boolean {
  return absolutePath === root || absolutePath.startsWith(`${root}/`);
}
