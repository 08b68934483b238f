import { describe, expect, it } from "vitest";
import { filesOfDiff } from "./diff-files";

const DIFF = `diff --git a/x.txt b/x.txt
new file mode 100644
index 0000000..e69de29
--- /dev/null
+++ b/x.txt
@@ -0,0 +1,2 @@
+hello
+world
diff --git a/bin.png b/bin.png
new file mode 100644
index 0000000..abc
Binary files /dev/null and b/bin.png differ
diff --git a/src/y.js b/src/y.js
index 1..2 100644
--- a/src/y.js
+++ b/src/y.js
@@ -1,2 +1,2 @@
 keep
-a
+b
diff --git a/gone.md b/gone.md
deleted file mode 100644
--- a/gone.md
+++ /dev/null
@@ -1 +0,0 @@
-bye
`;

describe("filesOfDiff", () => {
  it("finds every file with its kind and counts, binary ones included", () => {
    const files = filesOfDiff(DIFF);
    expect(files.map(({ path, kind, added, removed }) => [path, kind, added, removed])).toEqual([
      ["x.txt", "added", 2, 0],
      ["bin.png", "binary", 0, 0],
      ["src/y.js", "modified", 1, 1],
      ["gone.md", "deleted", 0, 1],
    ]);
    expect(files[2]?.lines).toEqual(["@@ -1,2 +1,2 @@", " keep", "-a", "+b"]);
  });

  it("is empty for no changes", () => {
    expect(filesOfDiff("")).toEqual([]);
  });
});
