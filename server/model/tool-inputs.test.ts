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
    [[child("a")], /children: Too small/],
    [[1, 2, 3, 4, 5, 6].map((n) => child(`s${n}`)), /children: Too big/],
    [[child("a"), { what: "b" }], /children\.1\.acceptance/],
    [[child("a"), { what: "   ", acceptance: "x" }], /children\.1\.what: must not be blank/],
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
    expect(!result.ok && result.problem).toMatch(/work_directly do not match its schema \(\(input\)/);
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
  it("accepts run_command", () => {
    const calls = [{ toolName: "run_command", input: { thought: "t", command: " npm test " } }];
    expect(interpretAction(calls, "")).toEqual({ ok: true, value: { thought: "t", command: "npm test" } });
  });

  it("rejects a missing command", () => {
    const result = interpretAction([{ toolName: "run_command", input: { thought: "t" } }], "");
    expect(!result.ok && result.problem).toMatch(/command: Invalid input/);
  });

  it("rejects an oversized command rather than truncating it", () => {
    const result = interpretAction(
      [{ toolName: "run_command", input: { thought: "t", command: "x".repeat(10_001) } }],
      "",
    );
    expect(result.ok).toBe(false);
  });
});
