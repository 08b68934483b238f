import { EMPTY_TREE, type LedgerExec } from "./collect";

/**
 * What the session's workspace differs from where the session started, as a readable patch: the
 * replay shows it as "the files as they were" at any point. Impure only through `exec` (the trace
 * ledger's git runner). The start is where the session's branch left the project's default branch
 * (`git merge-base HEAD origin/HEAD`), or the empty tree when the clone has no such branch.
 */

/** The patch is capped (it is stored in an event per changing cycle); file counts are always whole. */
export const SESSION_PATCH_MAX_BYTES = 64 * 1024;
export const SESSION_PATCH_MAX_FILES = 2_000;

export interface ChangedFile {
  path: string;
  /** null for a binary file. */
  added: number | null;
  removed: number | null;
}

export interface SessionPatch {
  base: string;
  files: ChangedFile[];
  /** `git diff` with three lines of context, whole files only, cut at SESSION_PATCH_MAX_BYTES. */
  patch: string;
  /** Some files' diffs were left out of `patch` to respect the cap. */
  truncated: boolean;
}

const OBJECT_ID = /^[0-9a-f]{40}([0-9a-f]{24})?$/;
const DIFF_FLAGS = "-c core.quotePath=false diff --no-color --no-ext-diff --no-textconv -M";

/** The diff between the session's start and the tree `after` (a ledger snapshot); null on any failure. */
export async function sessionPatch(exec: LedgerExec, after: string): Promise<SessionPatch | null> {
  try {
    const merged = await exec("git merge-base HEAD refs/remotes/origin/HEAD 2>/dev/null");
    const found = merged.stdout.trim();
    const base = merged.exitCode === 0 && OBJECT_ID.test(found) ? found : EMPTY_TREE;
    const numstat = await exec(`git ${DIFF_FLAGS} --numstat ${base} ${after} 2>/dev/null`);
    if (numstat.exitCode !== 0) return null;
    const files = parseNumstat(numstat.stdout).slice(0, SESSION_PATCH_MAX_FILES);
    const diff = await exec(`git ${DIFF_FLAGS} --unified=3 ${base} ${after} 2>/dev/null`);
    if (diff.exitCode !== 0) return null;
    const { patch, truncated } = capPatch(diff.stdout, SESSION_PATCH_MAX_BYTES);
    return { base, files, patch, truncated: truncated || diff.truncated === true };
  } catch {
    return null;
  }
}

/** `git diff --numstat` lines: "added<TAB>removed<TAB>path" ("-" for binary; renames as "a => b"). */
export function parseNumstat(text: string): ChangedFile[] {
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const [added = "-", removed = "-", ...rest] = line.split("\t");
      return {
        path: rest.join("\t"),
        added: added === "-" ? null : Number(added),
        removed: removed === "-" ? null : Number(removed),
      };
    });
}

/** Keeps whole files' diffs while they fit in `maxBytes`; a file that does not fit is left out. */
export function capPatch(patch: string, maxBytes: number): { patch: string; truncated: boolean } {
  if (Buffer.byteLength(patch, "utf8") <= maxBytes) return { patch, truncated: false };
  const files = splitPatch(patch);
  let kept = "";
  let size = 0;
  for (const file of files) {
    const bytes = Buffer.byteLength(file, "utf8");
    if (size + bytes > maxBytes) continue;
    kept += file;
    size += bytes;
  }
  return { patch: kept, truncated: true };
}

/** One string per file of a `git diff`, each starting with its "diff --git" line. */
export function splitPatch(patch: string): string[] {
  return patch.split(/(?=^diff --git )/m).filter((part) => part.startsWith("diff --git "));
}
