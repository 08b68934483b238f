import { describe, expect, it } from "vitest";
import { analyzeCodebase } from "@/server/domain/intent/codebase-intent";
import { summarizeIntent } from "@/server/domain/intent/discovered-intent";
import { analyzePrompt } from "@/server/domain/intent/prompt-intent";
import { discoverIntent } from "./discovery";

describe("analyzePrompt (router + prompt intent)", () => {
  it.each([
    ["What does the parser do?", "question"],
    ["how is auth wired", "question"],
    ["run `npm test` and then run `npm run lint`", "run"],
    ["fix the crash in src/app.ts", "fix"],
    ["add tests for the parser", "test"],
    ["refactor utils into two files", "refactor"],
    ["create a README with usage", "create"],
    ["bump the version", "change"],
  ])("classifies %j as %s", (prompt, kind) => {
    expect(analyzePrompt(prompt).kind).toBe(kind);
  });

  it("extracts targets and constraints", () => {
    const intent = analyzePrompt(
      "Fix the bug in src/parser.ts without changing `api.ts`; keep the public API stable.",
    );
    expect(intent.action).toBe("fix");
    expect(intent.targets).toEqual(expect.arrayContaining(["api.ts", "src/parser.ts"]));
    expect(intent.constraints).toEqual(["without changing `api.ts`", "keep the public API stable"]);
  });
});

describe("analyzeCodebase", () => {
  it("detects a TypeScript project tested with vitest through its npm script", () => {
    const files = [
      "package.json",
      "src/index.ts",
      "src/parser.ts",
      "src/parser.test.ts",
      "biome.json",
      "README.md",
    ];
    const packageJson = JSON.stringify({ scripts: { test: "vitest run" }, devDependencies: { vitest: "4" } });
    const intent = analyzeCodebase(files, packageJson, ["src/parser.ts"]);
    expect(intent).toMatchObject({
      languages: ["TypeScript"],
      testFramework: "vitest",
      testCommand: "npm test",
      // What decides whether a check of `npm test` can run with the runner's reporter (check-run.ts).
      testScript: "vitest run",
      fileCount: 6,
      relatedFiles: ["src/parser.ts", "src/parser.test.ts"],
      // What a generated test is checked against (issue #4: only when none exists for the target).
      testFiles: ["src/parser.test.ts"],
    });
    expect(intent.conventions).toEqual([
      "sources under src/",
      "tests next to the code (*.test.*)",
      "a formatter/linter is configured",
    ]);
  });

  it.each([
    [["pyproject.toml", "pkg/a.py", "tests/test_a.py"], "pytest", "python3 -m pytest -q"],
    [["go.mod", "main.go"], "go test", "go test ./..."],
    [["Cargo.toml", "src/main.rs"], "cargo test", "cargo test"],
    [["README.md"], null, null],
  ])("detects the test framework of %j", (files, framework, command) => {
    expect(analyzeCodebase(files, null)).toMatchObject({ testFramework: framework, testCommand: command });
  });

  it("keeps no test script that is too long to show on a card", () => {
    const long = `vitest run ${"x".repeat(600)}`;
    const intent = analyzeCodebase(["package.json"], JSON.stringify({ scripts: { test: long } }));
    expect(intent.testCommand).toBe("npm test");
    expect(intent.testScript).toBeUndefined();
  });

  it("survives a broken package.json", () => {
    expect(analyzeCodebase(["package.json"], "{ not json").testFramework).toBeNull();
  });
});

describe("summarizeIntent", () => {
  it("gives the planner a short factual summary", () => {
    const summary = summarizeIntent({
      prompt: analyzePrompt("fix src/a.go"),
      codebase: analyzeCodebase(["src/a.go", "go.mod"], null, ["src/a.go"]),
      memories: ["`go test ./...` verified the last change"],
      note: null,
    });
    expect(summary).toBe(
      [
        "Request kind: fix.",
        "Named targets: src/a.go.",
        "2 tracked files, mostly Go.",
        "Tests: go test — run with `go test ./...`.",
        "Conventions: sources under src/.",
        "Related files: src/a.go.",
        "From earlier sessions:\n- `go test ./...` verified the last change",
      ].join("\n"),
    );
  });
});

describe("discoverIntent with project instructions", () => {
  const rules = "Run the tests:\n\n```sh\npytest -q\n```\n";

  it("keeps the instructions, puts them in the summary, and offers their test command when none was detected", async () => {
    const intent = await discoverIntent("fix src/app.py", [], async () => ({
      files: ["AGENTS.md", "src/app.py"],
      packageJson: null,
      instructions: [{ path: "AGENTS.md", text: rules }],
    }));
    expect(intent.instructions).toEqual([{ path: "AGENTS.md", text: rules }]);
    expect(intent.codebase).toMatchObject({ testCommand: "pytest -q", testFramework: "pytest" });
    expect(summarizeIntent(intent)).toContain("### AGENTS.md (applies to the whole project)");
  });

  it("leaves a detected test command alone", async () => {
    const intent = await discoverIntent("fix src/a.ts", [], async () => ({
      files: ["package.json", "AGENTS.md", "src/a.ts"],
      packageJson: JSON.stringify({ scripts: { test: "vitest run" } }),
      instructions: [{ path: "AGENTS.md", text: rules }],
    }));
    expect(intent.codebase?.testCommand).toBe("npm test");
  });

  it("a project without instructions has none in its discovery", async () => {
    const intent = await discoverIntent("fix src/a.ts", [], async () => ({
      files: ["src/a.ts"],
      packageJson: null,
    }));
    expect(intent.instructions).toBeUndefined();
    expect(summarizeIntent(intent)).not.toContain("Project instructions");
  });
});
