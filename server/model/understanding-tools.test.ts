import { describe, expect, it } from "vitest";
import { interpretContract, interpretIntent, sortCriteria } from "./understanding-tools";

describe("interpretIntent", () => {
  it("accepts a report_intent call and marks it as the model's reading", () => {
    const result = interpretIntent(
      [{ toolName: "report_intent", input: { kind: "fix", action: "Repair", targets: ["src/a.ts"] } }],
      "",
    );
    expect(result).toEqual({
      ok: true,
      value: { kind: "fix", action: "repair", targets: ["src/a.ts"], constraints: [], source: "model" },
    });
  });

  it("explains a wrong kind, another tool, or prose, so the re-ask can correct it", () => {
    const wrongKind = interpretIntent(
      [{ toolName: "report_intent", input: { kind: "dance", action: "x" } }],
      "",
    );
    expect(wrongKind.ok === false && wrongKind.problem).toMatch(/kind/);
    const other = interpretIntent([{ toolName: "shell_exec", input: {} }], "");
    expect(other.ok === false && other.problem).toMatch(/shell_exec, not report_intent/);
    const prose = interpretIntent([], "It is a fix.");
    expect(prose.ok === false && prose.problem).toMatch(
      /text instead of calling report_intent: "It is a fix."/,
    );
  });
});

describe("sortCriteria", () => {
  it("keeps the criteria that parse, drops the others one by one and says why", () => {
    const sorted = sortCriteria([
      { kind: "FILE_EXISTS", path: "notes.txt" },
      { kind: "FILE_EXISTS" },
      { kind: "FUNCTION_EXISTS", name: "not a name", path: null },
      { kind: "TESTS_PASS", command: "npm test" },
      { kind: "GENERATED_TEST_PASSES", path: "t.test.ts", command: "npx vitest run t.test.ts" },
      { kind: "FILE_EXISTS", path: "notes.txt" },
      "garbage",
    ]);
    expect(sorted.criteria).toEqual([
      { kind: "FILE_EXISTS", path: "notes.txt" },
      { kind: "TESTS_PASS", command: "npm test" },
    ]);
    expect(sorted.dropped).toHaveLength(4);
    expect(sorted.dropped[0]).toMatch(/^#2 \(FILE_EXISTS\)/);
    expect(sorted.dropped[1]).toMatch(/^#3 \(FUNCTION_EXISTS\)/);
    expect(sorted.dropped[2]).toMatch(/GENERATED_TEST_PASSES.*generated_test/);
    expect(sorted.dropped[3]).toMatch(/^#7 \(\?\)/);
  });
});

describe("interpretContract", () => {
  it("returns the parsed criteria with the thought, even when some were dropped", () => {
    const result = interpretContract(
      [
        {
          toolName: "propose_contract",
          input: {
            thought: "check the file",
            criteria: [{ kind: "FILE_EXISTS", path: "a" }, { kind: "NOPE" }],
          },
        },
      ],
      "",
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.criteria).toEqual([{ kind: "FILE_EXISTS", path: "a" }]);
    expect(result.value.dropped).toEqual([expect.stringMatching(/^#2 \(NOPE\)/)]);
  });

  it("refuses more than eight criteria as a whole (the re-ask asks for fewer)", () => {
    const criteria = Array.from({ length: 9 }, (_, index) => ({ kind: "FILE_EXISTS", path: `f${index}` }));
    const result = interpretContract(
      [{ toolName: "propose_contract", input: { thought: "t", criteria } }],
      "",
    );
    expect(result.ok).toBe(false);
  });
});
