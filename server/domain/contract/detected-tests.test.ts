import { describe, expect, it } from "vitest";
import type { Criterion, CriterionResult } from "@/server/domain/contract/criteria";
import { analyzeCodebase, scriptFramework } from "@/server/domain/intent/codebase-intent";
import {
  contractTargets,
  detectedTestCheck,
  needsFallbackAfterBaseline,
  scopedCommandFor,
  testFilesFor,
} from "./detected-tests";

const nodeProject = analyzeCodebase(
  ["package.json", "sum.js", "mul.js", "test/sum.test.js", "test/mul.test.js"],
  JSON.stringify({ scripts: { test: "node --test" } }),
);

describe("test command detection", () => {
  it.each([
    ["node --test", "node:test"],
    ["node --experimental-test-coverage --test test/", "node:test"],
    ["vitest run", "vitest"],
    ["NODE_ENV=test jest --ci", "jest"],
    ["./node_modules/.bin/mocha", "mocha"],
    ["python3 -m pytest -q", "pytest"],
    ["tsc && echo built", null],
  ])("the script %s runs %s", (script, framework) => {
    expect(scriptFramework(script)).toBe(framework);
  });

  it("a package.json test script is the test command, with its runner as the framework", () => {
    expect(nodeProject).toMatchObject({ testFramework: "node:test", testCommand: "npm test" });
  });

  it("npm init's placeholder script is no test command", () => {
    const placeholder = analyzeCodebase(
      ["package.json", "index.js"],
      JSON.stringify({ scripts: { test: 'echo "Error: no test specified" && exit 1' } }),
    );
    expect(placeholder.testCommand).toBeNull();
  });

  it("a pytest layout (test_*.py or *_test.py) is pytest", () => {
    expect(analyzeCodebase(["calc.py", "tests/calc_test.py"], null)).toMatchObject({
      testFramework: "pytest",
      testCommand: "python3 -m pytest -q",
    });
  });
});

describe("detectedTestCheck: the fallback, scoped to the targets' tests where the runner takes files", () => {
  it("finds the test files of the targets by name", () => {
    expect(testFilesFor(["sum.js"], nodeProject.testFiles)).toEqual(["test/sum.test.js"]);
    expect(testFilesFor(["./test/mul.test.js"], nodeProject.testFiles)).toEqual(["test/mul.test.js"]);
    expect(testFilesFor(["div.js"], nodeProject.testFiles)).toEqual([]);
  });

  it("node:test, vitest, jest, pytest run exactly the scoped files", () => {
    expect(detectedTestCheck(nodeProject, ["sum.js"])).toEqual({
      kind: "TESTS_PASS",
      command: "node --test --test-reporter=tap test/sum.test.js",
    });
    expect(scopedCommandFor("vitest", ["src/a.test.ts"])).toBe("npx vitest run src/a.test.ts");
    expect(scopedCommandFor("jest", ["a b.test.js"])).toBe("npx jest 'a b.test.js'");
    expect(scopedCommandFor("pytest", ["tests/test_calc.py"])).toBe(
      "python3 -m pytest -q tests/test_calc.py",
    );
  });

  it("no related test file, or a runner that does not take files: the whole detected command", () => {
    expect(detectedTestCheck(nodeProject, ["div.js"])?.command).toBe("npm test");
    const go = { testFramework: "go test", testCommand: "go test ./...", testFiles: ["sum_test.go"] };
    expect(detectedTestCheck(go, ["sum.go"])?.command).toBe("go test ./...");
  });

  it("no detected test command: no fallback", () => {
    expect(detectedTestCheck(null, ["sum.js"])).toBeNull();
    expect(detectedTestCheck({ testFramework: null, testCommand: null, testFiles: [] }, [])).toBeNull();
  });

  it("an intention's own targets first, else the request's", () => {
    expect(contractTargets({ what: "fix `sum.js`" }, ["mul.js"])).toEqual(["sum.js"]);
    expect(contractTargets({ what: "make it work" }, ["mul.js"])).toEqual(["mul.js"]);
  });
});

describe("needsFallbackAfterBaseline", () => {
  const a: Criterion = { kind: "FILE_EXISTS", path: "a" };
  const b: Criterion = { kind: "FILE_CONTAINS", path: "a", text: "x" };
  const ok = (criterion: Criterion): CriterionResult => ({ criterion, passed: true, evidence: "" });
  const red = (criterion: Criterion): CriterionResult => ({ criterion, passed: false, evidence: "" });
  const notRun = (criterion: Criterion): CriterionResult => ({
    criterion,
    passed: false,
    evidence: "",
    couldNotRun: "asks",
  });

  it("every check ran and was green: yes", () => {
    expect(
      needsFallbackAfterBaseline(
        [a, b],
        [
          { index: 0, result: ok(a) },
          { index: 1, result: ok(b) },
        ],
        [],
        [],
      ),
    ).toBe(true);
  });

  it("a red check, one that could not run, one skipped, or a fallback already there: no", () => {
    expect(
      needsFallbackAfterBaseline(
        [a, b],
        [
          { index: 0, result: ok(a) },
          { index: 1, result: red(b) },
        ],
        [],
        [],
      ),
    ).toBe(false);
    expect(needsFallbackAfterBaseline([a], [{ index: 0, result: notRun(a) }], [], [])).toBe(false);
    expect(needsFallbackAfterBaseline([a, b], [{ index: 0, result: ok(a) }], [1], [])).toBe(false);
    expect(needsFallbackAfterBaseline([a], [{ index: 0, result: ok(a) }], [], [0])).toBe(false);
    expect(needsFallbackAfterBaseline([], [], [], [])).toBe(false);
    // A contract already at the event schema's cap of 20 checks gets no 21st.
    const full = Array.from(
      { length: 20 },
      (_, index): Criterion => ({ kind: "FILE_EXISTS", path: `f${index}` }),
    );
    const green = full.map((criterion, index) => ({ index, result: ok(criterion) }));
    expect(needsFallbackAfterBaseline(full, green, [], [])).toBe(false);
    expect(needsFallbackAfterBaseline(full.slice(0, 19), green.slice(0, 19), [], [])).toBe(true);
  });
});
