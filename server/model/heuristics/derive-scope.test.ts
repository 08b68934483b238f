import { describe, expect, it } from "vitest";
import { deriveOwnedScope } from "./derive-scope";

describe("deriveOwnedScope: the paths a child's text names", () => {
  it.each([
    ["create `src/util.ts` exporting add", ["src/util.ts"]],
    ["write notes to docs/ and update README.md", ["docs/**", "README.md"]],
    ["run `touch notes/a.txt`", ["notes/a.txt"]],
    ["fix the bug in ./src/app.ts, then check it", ["src/app.ts"]],
    ["edit /workspace/lib/x.py", ["lib/x.py"]],
    ["list the files", []],
    ["run `npm test`", []],
    ["see https://example.com/a.html for details", []],
    ["copy ../secrets.txt and /etc/passwd", []],
    ["use version 1.2.3 e.g. in the docs", []],
    ["update src/a.ts and src/a.ts again", ["src/a.ts"]],
  ])("%s → %j", (text, expected) => {
    expect(deriveOwnedScope(text)).toEqual(expected);
  });

  it("never hands out more than ten globs", () => {
    const text = Array.from({ length: 15 }, (_, i) => `f${i}.txt`).join(" ");
    expect(deriveOwnedScope(text)).toHaveLength(10);
  });
});
