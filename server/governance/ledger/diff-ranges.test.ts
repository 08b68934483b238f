import { describe, expect, it } from "vitest";
import { parseUnifiedDiff, unquoteGitPath } from "./diff-ranges";

/** Real `git diff --cached --unified=0 -M HEAD` output covering every kind of change at once. */
const MIXED = [
  "diff --git a/a.txt b/a.txt",
  "index 2019eda..cdd04da 100644",
  "--- a/a.txt",
  "+++ b/a.txt",
  "@@ -1 +1 @@",
  "-one",
  "+ONE",
  "@@ -6 +6 @@ five",
  "-six",
  "+SIX",
  "@@ -7,0 +8 @@ seven",
  "+eight",
  "diff --git a/bin.dat b/bin.dat",
  "new file mode 100644",
  "index 0000000..8352675",
  "Binary files /dev/null and b/bin.dat differ",
  'diff --git "a/caf\\303\\251.txt" "b/caf\\303\\251.txt"',
  "new file mode 100644",
  "index 0000000..587be6b",
  "--- /dev/null",
  '+++ "b/caf\\303\\251.txt"',
  "@@ -0,0 +1 @@",
  "+x",
  "diff --git a/del.txt b/del.txt",
  "deleted file mode 100644",
  "index 286c5f5..0000000",
  "--- a/del.txt",
  "+++ /dev/null",
  "@@ -1 +0,0 @@",
  "-gone",
  "diff --git a/move.txt b/moved.txt",
  "similarity index 90%",
  "rename from move.txt",
  "rename to moved.txt",
  "index 01f84f8..91a2c26 100644",
  "--- a/move.txt",
  "+++ b/moved.txt",
  "@@ -5 +5 @@ l4",
  "-l5",
  "+L5",
  "diff --git a/nonl.txt b/nonl.txt",
  "index eeed123..418f7b6 100644",
  "--- a/nonl.txt",
  "+++ b/nonl.txt",
  "@@ -1 +1,2 @@",
  "-tail",
  "\\ No newline at end of file",
  "+tail",
  "+more",
  "\\ No newline at end of file",
  "diff --git a/sp ace.txt b/sp ace.txt",
  "new file mode 100644",
  "index 0000000..07f33c4",
  "--- /dev/null",
  "+++ b/sp ace.txt\t",
  "@@ -0,0 +1,2 @@",
  "+new",
  "+file",
  "",
].join("\n");

describe("parseUnifiedDiff", () => {
  const files = parseUnifiedDiff(MIXED);
  const byPath = Object.fromEntries(files.map((file) => [file.path, file]));

  it("finds every file of the diff, in order", () => {
    expect(files.map((file) => [file.path, file.change])).toEqual([
      ["a.txt", "modified"],
      ["bin.dat", "added"],
      ["café.txt", "added"],
      ["del.txt", "deleted"],
      ["moved.txt", "renamed"],
      ["nonl.txt", "modified"],
      ["sp ace.txt", "added"],
    ]);
  });

  it("gives one range per hunk of a modified file, in new-file lines", () => {
    expect(byPath["a.txt"]?.ranges).toEqual([
      { startLine: 1, endLine: 1, lines: ["ONE"] },
      { startLine: 6, endLine: 6, lines: ["SIX"] },
      { startLine: 8, endLine: 8, lines: ["eight"] },
    ]);
  });

  it("covers a new file whole, including a quoted non-ASCII path and a path with a space", () => {
    expect(byPath["café.txt"]?.ranges).toEqual([{ startLine: 1, endLine: 1, lines: ["x"] }]);
    expect(byPath["sp ace.txt"]?.ranges).toEqual([{ startLine: 1, endLine: 2, lines: ["new", "file"] }]);
  });

  it("gives deleted and binary files no ranges", () => {
    expect(byPath["del.txt"]?.ranges).toEqual([]);
    expect(byPath["bin.dat"]).toMatchObject({ binary: true, ranges: [] });
  });

  it("keeps only the changed lines of a renamed file and remembers where it came from", () => {
    expect(byPath["moved.txt"]).toMatchObject({
      oldPath: "move.txt",
      ranges: [{ startLine: 5, endLine: 5, lines: ["L5"] }],
    });
  });

  it("ignores the no-newline markers", () => {
    expect(byPath["nonl.txt"]?.ranges).toEqual([{ startLine: 1, endLine: 2, lines: ["tail", "more"] }]);
  });

  it("returns nothing for an empty diff", () => {
    expect(parseUnifiedDiff("")).toEqual([]);
    expect(parseUnifiedDiff("\n")).toEqual([]);
  });

  it("gives a pure deletion inside a file no range", () => {
    const diff = "diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -3,2 +2,0 @@ x\n-c\n-d\n";
    expect(parseUnifiedDiff(diff)).toEqual([
      { path: "f", oldPath: null, change: "modified", binary: false, ranges: [] },
    ]);
  });

  it("keeps an empty new file with no ranges", () => {
    const diff = "diff --git a/e b/e\nnew file mode 100644\nindex 0000000..e69de29\n";
    expect(parseUnifiedDiff(diff)).toEqual([
      { path: "e", oldPath: null, change: "added", binary: false, ranges: [] },
    ]);
  });

  it("reads added lines that look like headers as content, by counting the hunk", () => {
    const diff = [
      "diff --git a/x.md b/x.md",
      "--- a/x.md",
      "+++ b/x.md",
      "@@ -0,0 +1,3 @@",
      "+++ not a header",
      "+diff --git a/y b/y",
      "+@@ -1 +1 @@",
      "diff --git a/y b/y",
      "--- a/y",
      "+++ b/y",
      "@@ -2 +2 @@",
      "-a",
      "+b",
    ].join("\n");
    expect(parseUnifiedDiff(diff)).toEqual([
      {
        path: "x.md",
        oldPath: null,
        change: "modified",
        binary: false,
        ranges: [
          { startLine: 1, endLine: 3, lines: ["++ not a header", "diff --git a/y b/y", "@@ -1 +1 @@"] },
        ],
      },
      {
        path: "y",
        oldPath: null,
        change: "modified",
        binary: false,
        ranges: [{ startLine: 2, endLine: 2, lines: ["b"] }],
      },
    ]);
  });

  it("splits ranges at context lines when the diff has context", () => {
    const diff = "--- a/f\n+++ b/f\n@@ -1,3 +1,5 @@\n+x\n a\n-b\n+y\n+z\n c\n";
    expect(parseUnifiedDiff(diff)[0]?.ranges).toEqual([
      { startLine: 1, endLine: 1, lines: ["x"] },
      { startLine: 3, endLine: 4, lines: ["y", "z"] },
    ]);
  });

  it("reads plain `diff -u` output with several files and timestamps", () => {
    const diff = [
      "--- a/one\t2026-01-01 00:00:00",
      "+++ b/one\t2026-01-01 00:00:01",
      "@@ -1 +0,0 @@",
      "-gone",
      "--- a/two\t2026-01-01 00:00:00",
      "+++ b/two\t2026-01-01 00:00:01",
      "@@ -1 +1 @@",
      "-old",
      "+new",
    ].join("\n");
    expect(parseUnifiedDiff(diff).map((file) => [file.path, file.ranges.length])).toEqual([
      ["one", 0],
      ["two", 1],
    ]);
  });

  it("treats a binary patch as binary", () => {
    const diff =
      "diff --git a/i.png b/i.png\nindex 1..2 100644\nGIT binary patch\nliteral 3\nKcmZQzWMT jk\n\nliteral 0\n";
    expect(parseUnifiedDiff(diff)).toEqual([
      { path: "i.png", oldPath: null, change: "modified", binary: true, ranges: [] },
    ]);
  });

  it("tolerates CRLF line endings", () => {
    const diff = "diff --git a/w b/w\r\n--- a/w\r\n+++ b/w\r\n@@ -0,0 +1 @@\r\n+hi\r\n";
    expect(parseUnifiedDiff(diff)[0]?.ranges).toEqual([{ startLine: 1, endLine: 1, lines: ["hi"] }]);
  });
});

describe("unquoteGitPath", () => {
  it("decodes octal UTF-8 bytes and escapes, and strips the a/ b/ prefix", () => {
    expect(unquoteGitPath('"b/caf\\303\\251 \\"q\\".txt"')).toBe('café "q".txt');
    expect(unquoteGitPath("a/plain.txt")).toBe("plain.txt");
    expect(unquoteGitPath("plain.txt", false)).toBe("plain.txt");
  });
});
