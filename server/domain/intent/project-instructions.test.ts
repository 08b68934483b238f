import { describe, expect, it } from "vitest";
import {
  INSTRUCTIONS_CHARS,
  instructionFileFor,
  instructionFilesOf,
  instructionsText,
  testCommandsIn,
} from "./project-instructions";

const FILES = [
  "AGENTS.md",
  "CLAUDE.md",
  "README.md",
  "src/index.ts",
  "packages/api/CLAUDE.md",
  "packages/api/src/server.ts",
  "packages/web/AGENTS.md",
  "packages/web/CLAUDE.md",
  "packages/web/src/deep/page.tsx",
  "packages/cli/bin/cli.ts",
];

describe("the nearest instruction file above a path", () => {
  it.each([
    ["src/index.ts", "AGENTS.md"],
    ["README.md", "AGENTS.md"],
    ["packages/api/src/server.ts", "packages/api/CLAUDE.md"],
    ["packages/web/src/deep/page.tsx", "packages/web/AGENTS.md"],
    ["packages/cli/bin/cli.ts", "AGENTS.md"],
    ["./packages/api/src/server.ts", "packages/api/CLAUDE.md"],
    ["/workspace/packages/web/x.ts", "packages/web/AGENTS.md"],
  ])("%s is governed by %s", (path, expected) => {
    expect(instructionFileFor(path, FILES)).toBe(expected);
  });

  it("CLAUDE.md applies where a directory has no AGENTS.md", () => {
    expect(instructionFileFor("src/a.ts", ["CLAUDE.md", "src/a.ts"])).toBe("CLAUDE.md");
  });

  it("a project without instruction files has none", () => {
    expect(instructionFileFor("src/a.ts", ["src/a.ts", "docs/agents.txt"])).toBeNull();
    expect(instructionFilesOf(["src/a.ts"])).toEqual([]);
  });

  it("a file in a sibling directory does not apply", () => {
    expect(instructionFileFor("packages/cli/bin/cli.ts", ["packages/api/AGENTS.md"])).toBeNull();
  });

  it("lists each directory's file once, the root first, AGENTS.md preferred", () => {
    expect(instructionFilesOf(FILES)).toEqual([
      "AGENTS.md",
      "packages/api/CLAUDE.md",
      "packages/web/AGENTS.md",
    ]);
  });
});

describe("the instructions' text", () => {
  it("names the directory each nested file governs", () => {
    const { text, shortened } = instructionsText([
      { path: "AGENTS.md", text: "Use tabs.\n" },
      { path: "packages/api/AGENTS.md", text: "Never touch the schema." },
    ]);
    expect(shortened).toBe(false);
    expect(text).toContain("### AGENTS.md (applies to the whole project)\n\nUse tabs.");
    expect(text).toContain("### packages/api/AGENTS.md (applies to files under `packages/api/`)");
  });

  it("is shortened to its budget with a marker, never emptied", () => {
    const long = "rule. ".repeat(2_000);
    const { text, shortened } = instructionsText([{ path: "AGENTS.md", text: long }]);
    expect(shortened).toBe(true);
    expect(text.startsWith("### AGENTS.md")).toBe(true);
    expect(text).toMatch(/… \(\d+ more characters\)$/);
    expect(text.length).toBeLessThan(INSTRUCTIONS_CHARS + 40);
  });
});

describe("test commands named in code blocks", () => {
  it("finds test commands in fences, skipping prose, comments and other commands", () => {
    const text = [
      "Run `npm run lint` before you push (inline, not a block).",
      "```sh",
      "# install first",
      "npm ci",
      "$ npm test",
      "pytest -q tests/unit",
      "npm test",
      "```",
      "~~~",
      "go test ./...",
      "~~~",
      "npm test outside a block",
    ].join("\n");
    expect(testCommandsIn(text)).toEqual(["npm test", "pytest -q tests/unit", "go test ./..."]);
  });

  it("finds none without a fenced block", () => {
    expect(testCommandsIn("Tests: run npm test.")).toEqual([]);
  });
});
