import { describe, expect, it } from "vitest";
import type { CriterionResult } from "./criteria";
import { guardCommandFor, guardVerdict } from "./regression-guard";
import { testResults } from "./test-results";

const criterion = { kind: "TESTS_PASS", command: "npm test" } as const;
const run = (failingTests: string[], passed = 3): CriterionResult => ({
  criterion,
  passed: failingTests.length === 0,
  evidence: "…",
  tests: testResults({
    runner: "node-test",
    passed,
    failed: failingTests.length,
    skipped: 0,
    failingTests,
    source: "reporter",
  }),
});
const couldNotRun = (why: string): CriterionResult => ({
  criterion,
  passed: false,
  evidence: why,
  couldNotRun: why,
});
const plain = (passed: boolean): CriterionResult => ({ criterion, passed, evidence: "" });

describe("guardCommandFor: which runs the regression guard watches", () => {
  const agent = { mode: "agent", intent: { codebase: { testCommand: "npm test" } } };
  const root = { what: "replace `a - b` with `a + b` in sum.js", contract: [] };

  it("an agent run in a project whose tests were detected", () => {
    expect(guardCommandFor(agent, root)).toBe("npm test");
  });
  it("none in chat mode, without detected tests, or before discovery", () => {
    expect(guardCommandFor({ ...agent, mode: "chat" }, root)).toBeNull();
    expect(guardCommandFor({ mode: "agent", intent: { codebase: { testCommand: null } } }, root)).toBeNull();
    expect(guardCommandFor({ mode: "agent", intent: null }, root)).toBeNull();
  });
  it("none when the root is a command of its own, or its contract already runs the tests", () => {
    expect(guardCommandFor(agent, { what: "run `npm test`", contract: [] })).toBeNull();
    expect(guardCommandFor(agent, { what: "run `touch once.txt`", contract: [] })).toBeNull();
    expect(
      guardCommandFor(agent, { ...root, contract: [{ kind: "TESTS_PASS", command: "npm test" }] }),
    ).toBeNull();
    expect(
      guardCommandFor(agent, { ...root, contract: [{ kind: "TESTS_PASS", command: "npm test -- sum" }] }),
    ).toBe("npm test");
  });
});

describe("guardVerdict: it only ever stops a VERIFIED", () => {
  it("green before, red after: a regression naming the failing tests", () => {
    const verdict = guardVerdict("npm test", run([]), run(["sum adds"]));
    expect(verdict).toMatchObject({ kind: "regression" });
    expect(verdict.kind === "regression" && verdict.reason).toContain(
      "passed before the work and fail after it (1 failed: sum adds)",
    );
  });
  it("green before, could not run after: a regression (fail closed)", () => {
    expect(guardVerdict("npm test", run([]), couldNotRun("npm: not found")).kind).toBe("regression");
  });
  it("could not run before: it stands aside, whatever happens after", () => {
    expect(guardVerdict("npm test", couldNotRun("no node_modules"), run(["x"])).kind).toBe("none");
  });
  it("red before, green after; green before and after: held", () => {
    expect(guardVerdict("npm test", run(["sum adds"]), run([])).kind).toBe("held");
    expect(guardVerdict("npm test", run([]), run([]))).toMatchObject({
      kind: "held",
      note: expect.stringContaining("as before it"),
    });
  });
  it("red before and after: a new failing name, or more failures, is a regression", () => {
    expect(guardVerdict("npm test", run(["a"]), run(["a", "b"])).kind).toBe("regression");
    const renamed = guardVerdict("npm test", run(["a"]), run(["b"]));
    expect(renamed.kind === "regression" && renamed.reason).toContain("newly failing: b");
    expect(guardVerdict("npm test", run(["a", "b"]), run(["a"])).kind).toBe("held");
  });
  it("red before and after without counts: held, and it says it cannot tell", () => {
    const verdict = guardVerdict("make test", plain(false), plain(false));
    expect(verdict).toMatchObject({
      kind: "held",
      note: expect.stringContaining("cannot show whether it got worse"),
    });
  });
});
