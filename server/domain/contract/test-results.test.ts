import { describe, expect, it } from "vitest";
import { CycleResultBody } from "@/server/domain/events/bodies/cycle";
import { CriterionResult } from "./criteria";
import { testResults } from "./test-results";

describe("stored test results", () => {
  const tests = testResults({
    runner: "pytest",
    passed: 3,
    failed: 1,
    skipped: 0,
    failingTests: ["test_calc::test_add_negatives"],
    source: "reporter",
  });

  it("a check result with counts round-trips, and one stored before counts existed still parses", () => {
    const criterion = { kind: "TESTS_PASS", command: "pytest" } as const;
    const withCounts = {
      criterion,
      passed: false,
      evidence: "…",
      tests,
      ranCommand: "pytest --junitxml=/tmp/r",
    };
    expect(CriterionResult.parse(withCounts)).toEqual(withCounts);
    expect(CriterionResult.parse({ criterion, passed: true, evidence: "exited 0" }).tests).toBeUndefined();
  });

  it("a cycle result parses with and without counts", () => {
    const old = {
      type: "cycle-result",
      runId: "r",
      intentionId: "i",
      cycleId: "c",
      exitCode: 1,
      output: "",
      timedOut: false,
      error: null,
      durationMs: 5,
    };
    expect(CycleResultBody.parse(old).tests).toBeUndefined();
    expect(CycleResultBody.parse({ ...old, tests }).tests).toEqual(tests);
  });

  it("refuses a negative count", () => {
    expect(
      CriterionResult.safeParse({
        criterion: { kind: "TESTS_PASS", command: "x" },
        passed: true,
        evidence: "",
        tests: { ...tests, passed: -1 },
      }).success,
    ).toBe(false);
  });

  it("derives the total and drops duplicate names", () => {
    const twice = testResults({ ...tests, failed: 2, failingTests: ["a", "a ", ""], source: "summary-line" });
    expect(twice).toMatchObject({ total: 5, failingTests: ["a"] });
  });
});
