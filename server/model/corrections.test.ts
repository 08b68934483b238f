import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  asksForFiles,
  CORRECTION_PROMPTS,
  checkCorrectionPrompts,
  classifyAnswer,
  correctAnswer,
  correctFailedTool,
} from "./corrections";
import { ROLE_PROMPTS } from "./roles/role-prompts";

const call = { toolName: "shell_exec", input: {} };

describe("which correction an unusable answer gets", () => {
  it("an answer with nothing in it is an empty response", () => {
    expect(classifyAnswer({ calls: [], text: "" })).toBe("empty-response");
    expect(classifyAnswer({ calls: [], text: "  \n" })).toBe("empty-response");
    // A reflection alone is not an answer either.
    expect(classifyAnswer({ calls: [], text: "<ide_reasoning>- plan</ide_reasoning>" })).toBe(
      "empty-response",
    );
  });

  it.each([
    "Could you paste the contents of src/app.ts?",
    "Please share the diff so I can review it.",
    "Can you send me the output of npm test?",
    "Please provide the file package.json.",
  ])("a request for files: %s", (text) => {
    expect(asksForFiles(text)).toBe(true);
    expect(classifyAnswer({ calls: [], text })).toBe("asks-for-files");
  });

  it.each(["I will fix the file now.", "The code in src/app.ts looks fine.", "Sure! I would just do it."])(
    "prose that does not ask for anything is a missing tool call: %s",
    (text) => {
      expect(asksForFiles(text)).toBe(false);
      expect(classifyAnswer({ calls: [], text })).toBe("invalid-tool-call");
    },
  );

  it("a call whose arguments failed the schema is an invalid tool call", () => {
    expect(classifyAnswer({ calls: [call], text: "" })).toBe("invalid-tool-call");
  });
});

describe("the corrections as sent, from the repository's prompt files", () => {
  it("each kind renders its own file with the problem in it", () => {
    const empty = correctAnswer({ calls: [], text: "" }, "no call", "one of the offered tools");
    expect(empty.note).toEqual({
      kind: "empty-response",
      prompt: "correct-empty-response",
      problem: "no call",
    });
    expect(empty.message).toContain("was empty");
    const asks = correctAnswer({ calls: [], text: "Please paste the file README.md" }, "p", "x");
    expect(asks.note.prompt).toBe("correct-asks-for-files");
    expect(asks.message).toContain('"Please paste the file README.md"');
    expect(asks.message).toContain("Nobody will paste");
    const invalid = correctAnswer({ calls: [call], text: "" }, "command: required", "shell_exec");
    expect(invalid.note.prompt).toBe("correct-tool-call");
    expect(invalid.message).toContain("command: required");
    const failed = correctFailedTool({ tool: "shell.exec", error: "exit code 2: no such file" });
    expect(failed.note).toMatchObject({ kind: "failed-tool", prompt: "correct-failed-tool" });
    expect(failed.message).toContain("`shell.exec`");
    expect(failed.message).toContain("exit code 2: no such file");
    const prompts = new Set([empty, asks, invalid, failed].map((rendered) => rendered.note.prompt));
    expect(prompts.size).toBe(4);
  });

  it("the startup check passes on the repository's prompts", () => {
    expect(() => checkCorrectionPrompts()).not.toThrow();
  });

  it("the startup check fails on an unknown variable, a dropped one and a missing file", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "arbor-corrections-"));
    const write = (name: string, text: string) => writeFileSync(path.join(dir, `${name}.md`), text);
    const valid = () => {
      for (const { prompt, variables } of Object.values(CORRECTION_PROMPTS))
        write(prompt, variables.map((name) => `{{${name}}}`).join(" "));
      write("reasoning-outcome", "{{outcome}}");
      for (const { prompt, variables } of ROLE_PROMPTS)
        write(prompt, variables.map((name) => `{{${name}}}`).join(" "));
    };
    valid();
    expect(() => checkCorrectionPrompts({ dir })).not.toThrow();
    write("correct-failed-tool", "{{tool}} {{error}} {{exit_code}}");
    expect(() => checkCorrectionPrompts({ dir })).toThrow(/no value for \{\{exit_code\}\}/);
    valid();
    write("correct-empty-response", "no variables at all");
    expect(() => checkCorrectionPrompts({ dir })).toThrow(/values not used by the file: tools/);
    valid();
    write("reasoning-outcome", "");
    expect(() => checkCorrectionPrompts({ dir: path.join(dir, "missing") })).toThrow(/not found/);
  });
});
