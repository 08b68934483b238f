import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fillTemplate, loadPrompt, PromptError, placeholdersOf, renderPrompt } from "./prompts";

function promptsDir(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "arbor-prompts-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, `${name}.md`), text);
  return dir;
}

describe("renderPrompt", () => {
  const dir = promptsDir({ greet: "Hello {{name}}, you are {{ role }}.\n{{name}} again.\n" });

  it("fills every placeholder, including repeats and spaced ones", () => {
    expect(renderPrompt("greet", { name: "Ada", role: "admin" }, { dir })).toBe(
      "Hello Ada, you are admin.\nAda again.",
    );
  });

  it("throws when a placeholder has no value", () => {
    expect(() => renderPrompt("greet", { name: "Ada" }, { dir })).toThrow(/no value for \{\{role\}\}/);
  });

  it("throws when a value is not used by the file", () => {
    expect(() => renderPrompt("greet", { name: "Ada", role: "x", extra: "y" }, { dir })).toThrow(
      /values not used by the file: extra/,
    );
  });

  it("throws a PromptError when the file is missing", () => {
    expect(() => renderPrompt("absent", {}, { dir })).toThrow(PromptError);
    expect(() => renderPrompt("absent", {}, { dir })).toThrow(/Prompt "absent" not found .*ENOENT/);
  });

  it("refuses names that could leave the prompts directory", () => {
    expect(() => loadPrompt("../secrets", { dir })).toThrow(/Invalid prompt name/);
    expect(() => loadPrompt("a/b", { dir })).toThrow(/Invalid prompt name/);
  });

  it("inserts values literally, without expanding placeholders inside them", () => {
    expect(fillTemplate("t", "say {{a}} {{b}}", { a: "{{b}}", b: "$&" })).toBe("say {{b}} $&");
  });

  it("lists placeholders once each, in order", () => {
    expect(placeholdersOf("{{b}} {{a}} {{ b }}")).toEqual(["b", "a"]);
  });
});

describe("the repository's prompts", () => {
  it.each([
    ["decompose", { minChildren: "2", maxChildren: "5", repoSummary: "a Node project" }],
    ["act", { task: "t", maxReads: "8", context: "## Intention chain (root → current)" }],
    ["correct-tool-call", { problem: "p", tools: "run_command" }],
    ["discover-intent", { repoSummary: "a Node project" }],
    ["build-contract", { task: "greet people", repoSummary: "a Node project" }],
  ])("%s renders from <cwd>/prompts with exactly its variables", (name, vars) => {
    const text = renderPrompt(name, vars);
    expect(text).not.toMatch(/\{\{/);
    for (const value of Object.values(vars)) expect(text).toContain(value);
  });
});
