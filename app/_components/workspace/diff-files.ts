/** One file's part of a `git diff`: its path, what happened to it, its counts and its lines. */
export interface FileChange {
  path: string;
  kind: "added" | "deleted" | "renamed" | "modified" | "binary";
  added: number;
  removed: number;
  /** The hunks' lines (from the first `@@`), as git printed them. */
  lines: string[];
}

/**
 * Splits a unified `git diff` into files. Written here rather than with `diff`'s parsePatch, which
 * drops the header-only entries git prints for binary files and mode changes.
 */
export function filesOfDiff(diff: string): FileChange[] {
  const chunks = diff.split(/^diff --git /m).slice(1);
  return chunks.map((chunk) => {
    const lines = chunk.split("\n");
    const header = lines[0] ?? "";
    const plus = lines.find((line) => line.startsWith("+++ "));
    const minus = lines.find((line) => line.startsWith("--- "));
    const renamedTo = lines.find((line) => line.startsWith("rename to "));
    const path =
      renamedTo?.slice("rename to ".length) ??
      (plus && plus !== "+++ /dev/null"
        ? plus.slice(6)
        : minus && minus !== "--- /dev/null"
          ? minus.slice(6)
          : null) ??
      header.replace(/^a\/(.*) b\/.*$/, "$1");
    const firstHunk = lines.findIndex((line) => line.startsWith("@@"));
    const body =
      firstHunk === -1
        ? []
        : lines.slice(firstHunk).filter((line, index, all) => index < all.length - 1 || line !== "");
    const kind: FileChange["kind"] = lines.some((line) => line.startsWith("Binary files "))
      ? "binary"
      : lines.some((line) => line.startsWith("new file mode"))
        ? "added"
        : lines.some((line) => line.startsWith("deleted file mode"))
          ? "deleted"
          : renamedTo
            ? "renamed"
            : "modified";
    return {
      path,
      kind,
      added: body.filter((line) => line.startsWith("+")).length,
      removed: body.filter((line) => line.startsWith("-")).length,
      lines: body,
    };
  });
}
