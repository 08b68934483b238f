import { describe, expect, it } from "vitest";
import { capPatch, parseNumstat, sessionPatch, splitPatch } from "./session-patch";

const fileDiff = (name: string, body: string) =>
  `diff --git a/${name} b/${name}\n--- a/${name}\n+++ b/${name}\n@@ -1 +1 @@\n-old\n+${body}\n`;

describe("session patch", () => {
  it("reads numstat, binary files and renames included", () => {
    expect(parseNumstat("3\t1\tsrc/a.ts\n-\t-\timg.png\n0\t0\told.ts => new.ts\n")).toEqual([
      { path: "src/a.ts", added: 3, removed: 1 },
      { path: "img.png", added: null, removed: null },
      { path: "old.ts => new.ts", added: 0, removed: 0 },
    ]);
  });

  it("splits a diff per file and keeps whole files under the cap", () => {
    const patch =
      fileDiff("a.txt", "x".repeat(10)) + fileDiff("b.txt", "y".repeat(500)) + fileDiff("c.txt", "z");
    expect(splitPatch(patch)).toHaveLength(3);
    expect(capPatch(patch, 10_000)).toEqual({ patch, truncated: false });
    const capped = capPatch(patch, 300);
    expect(capped.truncated).toBe(true);
    expect(splitPatch(capped.patch).map((p) => p.split("\n")[0])).toEqual([
      "diff --git a/a.txt b/a.txt",
      "diff --git a/c.txt b/c.txt",
    ]);
  });

  it("diffs from where the branch left origin, or from the empty tree, and gives up quietly", async () => {
    const calls: string[] = [];
    const exec =
      (base: string | null, fail = false) =>
      async (command: string) => {
        calls.push(command);
        if (command.startsWith("git merge-base"))
          return { exitCode: base ? 0 : 1, stdout: base ? `${base}\n` : "" };
        if (fail) return { exitCode: 128, stdout: "" };
        if (command.includes("--numstat")) return { exitCode: 0, stdout: "1\t0\tn.txt\n" };
        return { exitCode: 0, stdout: fileDiff("n.txt", "hello") };
      };
    const base = "a".repeat(40);
    const after = "b".repeat(40);
    expect(await sessionPatch(exec(base), after)).toMatchObject({
      base,
      files: [{ path: "n.txt", added: 1, removed: 0 }],
      truncated: false,
    });
    expect(calls.at(-1)).toContain(`--unified=3 ${base} ${after}`);
    expect((await sessionPatch(exec(null), after))?.base).toBe("4b825dc642cb6eb9a060e54bf8d69288fbee4904");
    expect(await sessionPatch(exec(base, true), after)).toBeNull();
  });
});
