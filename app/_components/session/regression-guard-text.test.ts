import { describe, expect, it } from "vitest";
import type { CriterionResult } from "@/server/domain/contract/criteria";
import type { RunGuardView } from "@/server/domain/session/view";
import { greenGuardRun, guardCriterion, redGuardRun } from "@/testing/events/guard-runs";
import { afterTheWork, guardOutcome } from "./regression-guard-text";

const criterion = guardCriterion;
const green = greenGuardRun;
const red = redGuardRun;
const guard = (afters: CriterionResult[], repairs = 0): RunGuardView => ({
  command: "npm test",
  before: green,
  after: afters.at(-1) ?? null,
  afters,
  repairsAllowed: 1,
  repairs: Array.from({ length: repairs }, () => ({ reason: "r", cyclesBefore: 1 })),
});

describe("the guard line's runs after the work", () => {
  it("one run (an older log, or no regression): as before", () => {
    expect(afterTheWork(guard([red]))).toBe("after the work failed (1 of 3: adds two numbers)");
    expect(afterTheWork(guard([]))).toBe("after the work not run yet");
  });
  it("before → after (regression) → repair cycle → after (held), and the run still to come", () => {
    expect(afterTheWork(guard([red, green], 1))).toBe(
      "after the work failed (1 of 3: adds two numbers) → repair cycle → after the repair cycle passed",
    );
    expect(afterTheWork(guard([red], 1))).toBe(
      "after the work failed (1 of 3: adds two numbers) → repair cycle → after the repair cycle not run yet",
    );
  });
});

describe("a guard that could not run before the work", () => {
  it("stands aside: nothing after the work is pending", () => {
    const aside: RunGuardView = {
      ...guard([]),
      before: { criterion, passed: false, evidence: "", couldNotRun: "x" },
    };
    expect(afterTheWork(aside)).toBe(
      "after the work not run (nothing to compare with, so it cannot show a regression)",
    );
  });
  it("counts one test in the singular", () => {
    const one = {
      ...red,
      passed: true,
      tests: { ...red.tests, passed: 1, failed: 0, total: 1 },
    } as CriterionResult;
    expect(guardOutcome(one).text).toBe("passed (1 test)");
  });
});

describe("a run that ended before the guard's next run", () => {
  it("says so instead of 'not run yet'", () => {
    expect(afterTheWork(guard([red], 1), true)).toBe(
      "after the work failed (1 of 3: adds two numbers) → repair cycle → after the repair cycle not run (the run ended before it)",
    );
  });
});
