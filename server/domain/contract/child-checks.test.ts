import { describe, expect, it } from "vitest";
import { childCheckCommands, childCheckPlan } from "./child-checks";

const codebase = {
  testFramework: "pytest",
  testCommand: "python3 -m pytest -q",
  testFiles: ["tests/test_calc.py"],
};

describe("childCheckPlan: what a decomposition card lists for a child", () => {
  it("named checks, then the detected tests for its target as the fallback", () => {
    const plan = childCheckPlan(
      { what: "fix `calc.py`", acceptance: "the file `calc.py` contains `a + b`" },
      codebase,
      [],
    );
    expect(plan).toEqual({
      named: ["grep -n -F -m 3 -- 'a + b' calc.py"],
      source: "acceptance",
      // The form that runs: the reporter is on the card, so the approval's hash binds it.
      detected: "python3 -m pytest -q tests/test_calc.py --junitxml=/dev/stdout",
    });
    expect(childCheckCommands(plan)).toEqual([
      "grep -n -F -m 3 -- 'a + b' calc.py",
      "python3 -m pytest -q tests/test_calc.py --junitxml=/dev/stdout",
    ]);
  });

  it("a named test command is listed in the form that runs: `npm test` with its script's reporter", () => {
    const npm = { testFramework: "vitest", testCommand: "npm test", testFiles: [], testScript: "vitest run" };
    const plan = childCheckPlan({ what: "fix `sum.js`", acceptance: "`npm test` passes" }, npm, []);
    expect(plan.named).toEqual(["npm test -- --reporter=default --reporter=json"]);
    // Without the script (an older run's discovery), the runner is not certain: as written.
    const unread = childCheckPlan(
      { what: "fix `sum.js`", acceptance: "`npm test` passes" },
      { ...npm, testScript: null },
      [],
    );
    expect(unread.named).toEqual(["npm test"]);
  });

  it("a child that is itself a test command is checked by exactly it: no reporter is added", () => {
    expect(
      childCheckPlan({ what: "run `python3 -m pytest -q`", acceptance: "" }, codebase, []).named,
    ).toEqual(["python3 -m pytest -q"]);
  });

  it("a child that is itself a command: that command alone", () => {
    expect(childCheckPlan({ what: "run `make`", acceptance: "" }, codebase, [])).toEqual({
      named: ["make"],
      source: "request",
      detected: null,
    });
  });

  it("nothing named: only the fallback (scoped by the request's targets), or nothing without detected tests", () => {
    expect(childCheckPlan({ what: "make it work", acceptance: "it works" }, codebase, ["calc.py"])).toEqual({
      named: [],
      source: null,
      detected: "python3 -m pytest -q tests/test_calc.py --junitxml=/dev/stdout",
    });
    expect(childCheckCommands(childCheckPlan({ what: "make it work", acceptance: "" }, null, []))).toEqual(
      [],
    );
  });
});

describe("childCheckPlan: a child that is itself a command", () => {
  it("never lists the fallback, even when its acceptance names a check", () => {
    const plan = childCheckPlan(
      { what: "run `ls calc.py`", acceptance: "the command `ls calc.py` exits 0" },
      codebase,
      ["calc.py"],
    );
    expect(plan).toEqual({ named: ["ls calc.py"], source: "acceptance", detected: null });
  });
});
