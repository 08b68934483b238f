import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CORRECTION_PROMPTS } from "./corrections";
import { COMPOSED_PROMPT, checkPromptFiles, TASK_PROMPTS } from "./prompt-catalog";
import { defaultPromptsDir } from "./prompts";
import { ROLE_PROMPTS } from "./roles/role-prompts";

/** Every prompt under prompts/ is checked at startup: a missing file or an unknown variable stops it. */

const repoDir = defaultPromptsDir();
const copy = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "arbor-prompts-"));
  cpSync(repoDir, dir, { recursive: true });
  return dir;
};

describe("the prompt catalog", () => {
  it("the repository's prompts pass the startup check", () => {
    expect(() => checkPromptFiles()).not.toThrow();
  });

  it("knows every file under prompts/, so a new prompt cannot skip the check", () => {
    const known = new Set([
      "act",
      "reasoning-outcome",
      ...Object.keys(TASK_PROMPTS),
      ...Object.values(CORRECTION_PROMPTS).map((entry) => entry.prompt),
      ...ROLE_PROMPTS.map((entry) => entry.prompt),
    ]);
    const files = readdirSync(repoDir).map((file) => file.replace(/\.md$/, ""));
    expect(files.filter((name) => !known.has(name) && !COMPOSED_PROMPT.test(name))).toEqual([]);
  });

  it("stops on a task prompt's unknown variable, a composed prompt's unknown variable and a missing file", () => {
    const unknownTask = copy();
    writeFileSync(
      path.join(unknownTask, "decompose.md"),
      "{{minChildren}} {{maxChildren}} {{repoSummary}} {{typo}}",
    );
    expect(() => checkPromptFiles({ dir: unknownTask })).toThrow(/typo/);
    const unknownComposed = copy();
    writeFileSync(path.join(unknownComposed, "stage-verify.md"), "{{tool_summary}} {{secret_sauce}}");
    expect(() => checkPromptFiles({ dir: unknownComposed })).toThrow(/secret_sauce/);
    const missing = copy();
    rmSync(path.join(missing, "role-critic.md"));
    expect(() => checkPromptFiles({ dir: missing })).toThrow(/"role-critic" not found/);
  });
});
