import { describe, expect, it } from "vitest";
import { interpretAction, interpretPlan } from "./tool-inputs";

const child = (what: string) => ({ what, acceptance: `${what} done` });

describe("interpretPlan", () => {
  it("accepts work_directly", () => {
    const calls = [{ toolName: "work_directly", input: { thought: "  one step  " } }];
    expect(interpretPlan(calls, "")).toEqual({ ok: true, value: { kind: "direct", thought: "one step" } });
  });

  it("accepts a decomposition of 2–5 children, trimmed", () => {
    const input = { thought: "split", children: [{ what: " a ", acceptance: " x " }, child("b")] };
    expect(interpretPlan([{ toolName: "propose_decomposition", input }], "")).toEqual({
      ok: true,
      value: { kind: "decompose", thought: "split", children: [{ what: "a", acceptance: "x" }, child("b")] },
    });
  });

  it.each([
    [[child("a")], /✖ Too small.*\n {2}→ at children$/],
    [[1, 2, 3, 4, 5, 6].map((n) => child(`s${n}`)), /✖ Too big.*\n {2}→ at children$/],
    [[child("a"), { what: "b" }], /→ at children\[1\]\.acceptance/],
    [[child("a"), { what: "   ", acceptance: "x" }], /✖ must not be blank\n {2}→ at children\[1\]\.what/],
  ])("rejects invalid children %#", (children, problem) => {
    const result = interpretPlan(
      [{ toolName: "propose_decomposition", input: { thought: "t", children } }],
      "",
    );
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problem).toMatch(problem);
  });

  it("rejects input that is not even an object (unparsable JSON arrives as a string)", () => {
    const result = interpretPlan([{ toolName: "work_directly", input: '{"thought": ' }], "");
    expect(!result.ok && result.problem).toMatch(
      /work_directly do not match its schema:\n✖ Invalid input: expected object, received string$/,
    );
  });

  it("explains a text answer, quoting the start of the text", () => {
    const result = interpretPlan([], "Sure, I will do it.");
    expect(!result.ok && result.problem).toBe(
      'you answered with text instead of calling work_directly or propose_decomposition: "Sure, I will do it."',
    );
  });

  it("rejects a tool that is not offered", () => {
    const result = interpretPlan([{ toolName: "run_command", input: {} }], "");
    expect(!result.ok && result.problem).toMatch(/you called run_command, which is not one of/);
  });

  it("caps a runaway thought", () => {
    const result = interpretPlan([{ toolName: "work_directly", input: { thought: "x".repeat(3_000) } }], "");
    expect(result.ok && result.value.thought.length).toBe(1_000);
  });
});

describe("interpretAction", () => {
  const offered = ["fs.read", "fs.write", "fs.edit", "shell.exec"] as const;

  it("accepts a registry tool by its function name, keeping the arguments for the dispatch", () => {
    const calls = [{ toolName: "shell_exec", input: { thought: "t", command: "npm test" } }];
    expect(interpretAction(calls, "", offered)).toEqual({
      ok: true,
      value: { thought: "t", tool: "shell.exec", input: { command: "npm test" } },
    });
    const write = [{ toolName: "fs_write", input: { thought: "w", path: "a.txt", content: "x\n" } }];
    expect(interpretAction(write, "", offered)).toEqual({
      ok: true,
      value: { thought: "w", tool: "fs.write", input: { path: "a.txt", content: "x\n" } },
    });
  });

  it("says what the thought was when the model gave none", () => {
    const result = interpretAction([{ toolName: "fs_read", input: { path: "a.txt" } }], "", offered);
    expect(result.ok && result.value.thought).toBe("Call fs.read.");
  });

  it("rejects arguments that do not match the tool's schema, for the corrective re-ask", () => {
    const result = interpretAction(
      [{ toolName: "fs_edit", input: { thought: "t", path: "a" } }],
      "",
      offered,
    );
    expect(!result.ok && result.problem).toMatch(/fs_edit do not match its schema:\n✖ .*\n {2}→ at search/);
    const extra = interpretAction(
      [{ toolName: "shell_exec", input: { thought: "t", command: "ls", sudo: true } }],
      "",
      offered,
    );
    expect(extra.ok).toBe(false);
  });

  it("rejects a tool that is not offered, a dotted name and a non-object input", () => {
    const notOffered = interpretAction([{ toolName: "git_commit", input: { message: "m" } }], "", offered);
    expect(!notOffered.ok && notOffered.problem).toMatch(
      /you called git_commit, which is not one of fs_read/,
    );
    const dotted = interpretAction([{ toolName: "fs.read", input: { path: "a" } }], "", offered);
    expect(dotted.ok).toBe(false);
    const text = interpretAction([{ toolName: "fs_read", input: "{" }], "", offered);
    expect(!text.ok && text.problem).toMatch(/must be a JSON object/);
  });
});

describe("interpretAction with the project's MCP tools", () => {
  const offered = ["fs.read", "shell.exec"] as const;
  it("accepts an offered MCP tool under its registry name, and only an offered one", () => {
    const call = { toolName: "mcp__gh__create_issue", input: { thought: "file it", title: "Bug" } };
    expect(interpretAction([call], "", offered, ["mcp__gh__create_issue"])).toEqual({
      ok: true,
      value: { thought: "file it", tool: "mcp__gh__create_issue", input: { title: "Bug" } },
    });
    expect(interpretAction([call], "", offered).ok).toBe(false);
    expect(interpretAction([{ ...call, input: [1] }], "", offered, ["mcp__gh__create_issue"]).ok).toBe(false);
  });
});
