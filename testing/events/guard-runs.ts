import type { CriterionResult } from "@/server/domain/contract/criteria";

/** The regression guard's runs of `npm test` as unit tests build them: one all green, one with a failing test. */
export const guardCriterion = { kind: "TESTS_PASS", command: "npm test" } as const;

export const greenGuardRun: CriterionResult = { criterion: guardCriterion, passed: true, evidence: "ok" };

export const redGuardRun = {
  criterion: guardCriterion,
  passed: false,
  evidence: "1 failed",
  tests: {
    runner: "node-test",
    passed: 2,
    failed: 1,
    skipped: 0,
    total: 3,
    failingTests: ["adds two numbers"],
    source: "reporter",
  },
} as CriterionResult;
