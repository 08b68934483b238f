import { describe, expect, it } from "vitest";
import { judgeCommand, reflectOnFailure } from "./judge";

describe("judgeCommand", () => {
  it("judges exit code 0 a success", () => {
    expect(judgeCommand({ exitCode: 0, timedOut: false, error: null })).toEqual({
      judgment: "SUCCESS",
      reason: "exit code 0",
    });
  });

  it.each([1, 2, 127, 137])("judges exit code %i a failure and names the code", (code) => {
    const result = judgeCommand({ exitCode: code, timedOut: false, error: null });
    expect(result.judgment).toBe("FAILURE");
    expect(result.reason).toBe(`exit code ${code}`);
  });

  it("judges a timeout a failure even when the exit code was 0", () => {
    expect(judgeCommand({ exitCode: 0, timedOut: true, error: null }).judgment).toBe("FAILURE");
  });

  it("judges an action that could not run a failure, with the error as reason", () => {
    const result = judgeCommand({ exitCode: null, timedOut: false, error: "Docker engine is not reachable" });
    expect(result).toEqual({
      judgment: "FAILURE",
      reason: "the action could not run: Docker engine is not reachable",
    });
  });

  it("judges a missing exit code unclear", () => {
    expect(judgeCommand({ exitCode: null, timedOut: false, error: null }).judgment).toBe("UNCLEAR");
  });
});

describe("reflectOnFailure", () => {
  it("keeps only the last five lines of output", () => {
    const output = Array.from({ length: 20 }, (_, i) => `line ${i}`).join("\n");
    const reflection = reflectOnFailure({ exitCode: 1, timedOut: false, error: null }, output);
    expect(reflection).toContain("line 19");
    expect(reflection).toContain("line 15");
    expect(reflection).not.toContain("line 14");
    expect(reflection).toContain("exit code 1");
  });

  it("names the failing tests of a test run", () => {
    const tests = {
      runner: "pytest" as const,
      passed: 2,
      failed: 1,
      skipped: 0,
      total: 3,
      failingTests: ["test_calc.py::test_add_negatives"],
      source: "summary-line" as const,
    };
    expect(reflectOnFailure({ exitCode: 1, timedOut: false, error: null, tests }, "E assert -3 == -4")).toBe(
      "Failed (exit code 1). 2 passed, 1 failed, 0 skipped; failing: test_calc.py::test_add_negatives. Last output:\nE assert -3 == -4",
    );
  });

  it("says so when there was no output", () => {
    expect(reflectOnFailure({ exitCode: 3, timedOut: false, error: null }, "  ")).toBe(
      "Failed (exit code 3) with no output.",
    );
  });
});

describe("judgeCommand indicators", () => {
  it("judges exit 0 with a Python traceback in the output PARTIAL", () => {
    const result = judgeCommand({
      exitCode: 0,
      timedOut: false,
      error: null,
      output: "Traceback (most recent call last):\n  File x",
    });
    expect(result.judgment).toBe("PARTIAL");
    expect(result.reason).toContain("Traceback");
  });

  it("keeps a plain mention of errors in passing output a SUCCESS", () => {
    expect(
      judgeCommand({ exitCode: 0, timedOut: false, error: null, output: "0 errors, 12 passed" }).judgment,
    ).toBe("SUCCESS");
  });
});

describe("judgeCommand with a test command's counts", () => {
  const tests = (passed: number, failed: number, skipped: number) => ({
    runner: "node-test" as const,
    passed,
    failed,
    skipped,
    total: passed + failed + skipped,
    failingTests: failed > 0 ? ["adds negatives"] : [],
    source: "summary-line" as const,
  });
  const ok = { exitCode: 0, timedOut: false, error: null };

  it("a run of zero tests that exited 0 is not a success", () => {
    expect(judgeCommand({ ...ok, tests: tests(0, 0, 2) })).toEqual({
      judgment: "PARTIAL",
      reason: "exit code 0, but ran 0 tests (2 skipped)",
    });
  });

  it("a failed test hidden behind exit code 0 is named", () => {
    expect(judgeCommand({ ...ok, tests: tests(2, 1, 0) }).reason).toBe(
      "exit code 0, but 1 test failed: adds negatives",
    );
  });

  it("passing tests keep the success", () => {
    expect(judgeCommand({ ...ok, tests: tests(3, 0, 1) }).judgment).toBe("SUCCESS");
  });
});
