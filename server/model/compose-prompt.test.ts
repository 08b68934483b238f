import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REASONING_SWITCHES, STAGES, USER_MODES } from "@/server/domain/vocabulary/stages";
import { placeholdersOf } from "@/server/model/prompts";
import { stagePolicy } from "@/server/policy/stages/policy";
import { PROMPT_VARIABLES, REASONING_MARKER } from "@/server/policy/stages/prompt-variables";
import { composeSystemPrompt } from "./compose-prompt";

const dir = path.resolve(import.meta.dirname, "../../prompts");
const vars = {
  project_root: "/workspace",
  user_input: "add a test",
  tool_summary: "fs.read, fs.list",
  last_step_outcome: "exit 1: 2 tests failed",
};
const policies = STAGES.flatMap((stage) =>
  USER_MODES.flatMap((mode) => REASONING_SWITCHES.map((reasoning) => stagePolicy(stage, mode, reasoning))),
).filter((policy) => policy.allowed);
const usedNames = [...new Set(policies.flatMap((policy) => policy.prompts))];

describe("prompt files used by the stage policy", () => {
  it.each(usedNames)("%s exists and uses only seed 001 §5.3 variables", (name) => {
    const text = readFileSync(path.join(dir, `${name}.md`), "utf8");
    for (const key of placeholdersOf(text)) expect(PROMPT_VARIABLES).toContain(key);
  });

  it("never suggest changing the user's mode or reasoning switch (seed 001 §2.1, §2.2)", () => {
    for (const file of readdirSync(dir).filter((name) => name.endsWith(".md"))) {
      const text = readFileSync(path.join(dir, file), "utf8");
      expect(text, file).not.toMatch(
        /\b(switch|toggle|change|flip|enable|disable)\w*\b[^.\n]{0,40}\b(mode|reasoning)\b/i,
      );
    }
  });

  it("carry the reasoning marker only in the reasoning prompts", () => {
    for (const name of usedNames) {
      const text = readFileSync(path.join(dir, `${name}.md`), "utf8");
      expect(text.includes(REASONING_MARKER), name).toBe(name.startsWith("reasoning-"));
    }
  });
});

describe("composeSystemPrompt", () => {
  it.each(policies)("renders $stage / $mode / reasoning $reasoning from the real files", (policy) => {
    const text = composeSystemPrompt(policy, vars, { dir });
    expect(text).not.toMatch(/\{\{/);
    expect(text.includes(REASONING_MARKER)).toBe(policy.reasoning === "on");
    expect(text).toContain("/workspace");
  });

  it("joins the files in the policy's order", () => {
    const files: Record<string, string> = {
      "base-system": "BASE",
      "project-context": "ROOT {{project_root}}",
      "mode-agent": "MODE",
      "stage-act": "STAGE {{tool_summary}}",
      "reasoning-micro": "REASON",
    };
    const text = composeSystemPrompt(stagePolicy("act", "agent", "on"), vars, {
      load: (name) => files[name] ?? "",
    });
    expect(text).toBe("BASE\n\nROOT /workspace\n\nMODE\n\nSTAGE fs.read, fs.list\n\nREASON");
  });

  it("refuses a disallowed stage, a missing value and a variable outside the allowed set", () => {
    expect(() => composeSystemPrompt(stagePolicy("act", "chat", "off"), vars, { dir })).toThrow(
      /chat mode does not run the act stage/,
    );
    expect(() => composeSystemPrompt(stagePolicy("act", "agent", "off"), {}, { dir })).toThrow(
      /no value for \{\{project_root\}\}/,
    );
    expect(() =>
      composeSystemPrompt(stagePolicy("delivery_check", "chat", "off"), vars, { load: () => "{{secret}}" }),
    ).toThrow(/outside seed 001 §5.3: secret/);
  });
});
