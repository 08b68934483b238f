/**
 * Changed line ranges of a unified diff (`git diff --unified=0`), in the coordinates of the NEW file:
 * what the trace ledger attributes. Pure; works for any context size (context lines split ranges).
 *
 * Parsed by hand (the `diff` package is not installed): `diff --git` starts a file, `@@ -a,b +c,d @@`
 * starts a hunk whose body is exactly `b` old and `d` new lines, so an added line that itself begins
 * with `+++` or `diff --git` is never mistaken for a header.
 */

export type FileChange = "added" | "modified" | "deleted" | "renamed";

export interface DiffRange {
  /** 1-based, inclusive, in the new file. */
  startLine: number;
  endLine: number;
  /** The added lines of the range, without their `+` and without line terminators. */
  lines: string[];
}

export interface FileDiff {
  /** Path in the new tree (for a deleted file: the path it had). */
  path: string;
  /** Path in the old tree when it differs (renames and copies), else null. */
  oldPath: string | null;
  change: FileChange;
  binary: boolean;
  /** Empty for deleted files, binary files and pure deletions inside a file. */
  ranges: DiffRange[];
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** Undoes git's C-style quoting of a path (`"a/caf\303\251"`), then strips an `a/` or `b/` prefix. */
export function unquoteGitPath(raw: string, stripPrefix = true): string {
  let text = raw;
  if (text.startsWith('"') && text.endsWith('"') && text.length >= 2) {
    const bytes: number[] = [];
    const body = text.slice(1, -1);
    const escapes: Record<string, number> = {
      n: 10,
      t: 9,
      r: 13,
      b: 8,
      f: 12,
      v: 11,
      a: 7,
      '"': 34,
      "\\": 92,
    };
    for (let i = 0; i < body.length; i++) {
      const ch = body[i] as string;
      if (ch !== "\\") {
        bytes.push(...new TextEncoder().encode(ch));
        continue;
      }
      const next = body[i + 1] ?? "";
      const octal = /^[0-7]{3}/.exec(body.slice(i + 1));
      if (octal) {
        bytes.push(Number.parseInt(octal[0], 8));
        i += 3;
      } else {
        bytes.push(escapes[next] ?? next.charCodeAt(0));
        i += 1;
      }
    }
    text = new TextDecoder().decode(new Uint8Array(bytes));
  }
  if (stripPrefix && (text.startsWith("a/") || text.startsWith("b/"))) return text.slice(2);
  return text;
}

/** The two paths of a `diff --git a/x b/y` line; ambiguous unquoted paths with spaces split in the middle. */
function pathsOfGitHeader(rest: string): { oldPath: string; newPath: string } {
  const quoted = /^("(?:[^"\\]|\\.)*"|\S+) ("(?:[^"\\]|\\.)*"|.+)$/.exec(rest);
  if (rest.startsWith('"') || rest.endsWith('"')) {
    if (quoted) return { oldPath: unquoteGitPath(quoted[1] ?? ""), newPath: unquoteGitPath(quoted[2] ?? "") };
  }
  // Unquoted: `a/<p> b/<p>` with the same path twice is the common case (paths may contain spaces).
  const half = (rest.length - 1) / 2;
  if (Number.isInteger(half) && rest[half] === " ") {
    const left = rest.slice(0, half);
    const right = rest.slice(half + 1);
    if (left.slice(2) === right.slice(2))
      return { oldPath: unquoteGitPath(left), newPath: unquoteGitPath(right) };
  }
  const at = rest.indexOf(" b/");
  if (at > 0)
    return { oldPath: unquoteGitPath(rest.slice(0, at)), newPath: unquoteGitPath(rest.slice(at + 1)) };
  return { oldPath: unquoteGitPath(rest), newPath: unquoteGitPath(rest) };
}

interface Building {
  oldPath: string;
  newPath: string;
  added: boolean;
  deleted: boolean;
  renamed: boolean;
  binary: boolean;
  ranges: DiffRange[];
  /** Started by a `diff --git` line whose `---`/`+++` lines have not been read yet. */
  awaitingPaths: boolean;
}

function finish(file: Building): FileDiff {
  const change: FileChange = file.deleted
    ? "deleted"
    : file.added
      ? "added"
      : file.renamed || file.oldPath !== file.newPath
        ? "renamed"
        : "modified";
  return {
    path: file.deleted ? file.oldPath : file.newPath,
    oldPath: !file.deleted && !file.added && file.oldPath !== file.newPath ? file.oldPath : null,
    change,
    binary: file.binary,
    ranges: file.deleted || file.binary ? [] : file.ranges,
  };
}

/** Every file of the diff, in order, with the new-file line ranges its hunks add. */
export function parseUnifiedDiff(diff: string): FileDiff[] {
  const files: FileDiff[] = [];
  const lines = diff.split("\n");
  // A trailing newline leaves one empty element that is not a line of the diff.
  if (lines.at(-1) === "") lines.pop();
  let file: Building | null = null;

  const start = (oldPath: string, newPath: string, awaitingPaths: boolean): Building => {
    if (file) files.push(finish(file));
    file = {
      oldPath,
      newPath,
      added: false,
      deleted: false,
      renamed: false,
      binary: false,
      ranges: [],
      awaitingPaths,
    };
    return file;
  };

  let i = 0;
  while (i < lines.length) {
    const line = (lines[i] as string).replace(/\r$/, "");
    i += 1;
    if (line.startsWith("diff --git ")) {
      const { oldPath, newPath } = pathsOfGitHeader(line.slice("diff --git ".length));
      start(oldPath, newPath, true);
      continue;
    }
    // A plain `diff -u` (no `diff --git` line) starts a file at its `---` line.
    if (line.startsWith("--- ") && (lines[i] ?? "").startsWith("+++ ")) {
      const oldRaw = line.slice(4).split("\t")[0] as string;
      const newRaw = (lines[i] as string).replace(/\r$/, "").slice(4).split("\t")[0] as string;
      i += 1;
      const current = file as Building | null;
      const target = current?.awaitingPaths ? current : start(oldRaw, newRaw, false);
      target.awaitingPaths = false;
      if (oldRaw === "/dev/null") target.added = true;
      else target.oldPath = unquoteGitPath(oldRaw);
      if (newRaw === "/dev/null") target.deleted = true;
      else target.newPath = unquoteGitPath(newRaw);
      continue;
    }
    const current = file as Building | null;
    if (!current) continue;
    if (line.startsWith("new file mode")) current.added = true;
    else if (line.startsWith("deleted file mode")) current.deleted = true;
    else if (line.startsWith("rename from ") || line.startsWith("copy from ")) {
      current.oldPath = unquoteGitPath(line.replace(/^(rename|copy) from /, ""), false);
      current.renamed = true;
    } else if (line.startsWith("rename to ") || line.startsWith("copy to ")) {
      current.newPath = unquoteGitPath(line.replace(/^(rename|copy) to /, ""), false);
      current.renamed = true;
    } else if (line.startsWith("Binary files ") || line === "GIT binary patch") current.binary = true;
    else {
      const hunk = HUNK.exec(line);
      if (!hunk) continue;
      let oldLeft = hunk[2] === undefined ? 1 : Number(hunk[2]);
      let newLeft = hunk[4] === undefined ? 1 : Number(hunk[4]);
      let next = Number(hunk[3]);
      let run: DiffRange | null = null;
      const close = () => {
        if (run) current.ranges.push(run);
        run = null;
      };
      while (i < lines.length && (oldLeft > 0 || newLeft > 0 || (lines[i] ?? "").startsWith("\\"))) {
        const body = (lines[i] as string).replace(/\r$/, "");
        const mark = body[0];
        if (mark === "\\") {
          // "\ No newline at end of file": about the line before it, not a line itself.
          i += 1;
          continue;
        }
        if (mark === "+") {
          const r: DiffRange = run ?? { startLine: next, endLine: next, lines: [] };
          r.endLine = next;
          r.lines.push(body.slice(1));
          run = r;
          next += 1;
          newLeft -= 1;
        } else if (mark === "-") {
          oldLeft -= 1;
        } else if (mark === " " || body === "") {
          close();
          next += 1;
          oldLeft -= 1;
          newLeft -= 1;
        } else break;
        i += 1;
      }
      close();
    }
  }
  if (file) files.push(finish(file));
  return files;
}
