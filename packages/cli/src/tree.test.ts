import { describe, expect, it } from "vitest";
import type { CriterionResult } from "@/server/domain/contract/criteria";
import { foldEvents } from "@/server/domain/session/fold";
import { decomposedRun, sequence } from "@/testing/events/events";
import { runLines } from "./tree";

const criterion = { kind: "TESTS_PASS", command: "npm test" } as const;
const result = (passed: boolean): CriterionResult => ({
  criterion,
  passed,
  evidence: passed ? "ok" : "1 failed",
});
const guard = (phase: "before" | "after", passed: boolean) => ({
  type: "regression-guard-checked" as const,
  runId: "run-1",
  intentionId: "root",
  phase,
  command: "npm test",
  result: result(passed),
});

describe("arbor history show: the regression guard under the run", () => {
  it("prints before → after (regression) → repair cycle → after the repair cycle, in order", () => {
    const view = foldEvents(
      sequence([
        ...decomposedRun(),
        { ...guard("before", true), repairs: 1 },
        guard("after", false),
        {
          type: "regression-guard-repair",
          runId: "run-1",
          intentionId: "root",
          reason: "fix adds two numbers",
        },
        guard("after", true),
      ]),
    );
    const run = view.runs["run-1"];
    const text = run ? runLines(view, run).map((line) => line.text) : [];
    const guardLines = text.filter((line) => /regression guard|repair cycle:/.test(line));
    expect(guardLines.map((line) => line.trim().split("\n")[0])).toEqual([
      "regression guard, before the work: ✓ passed: `npm test` exits 0",
      "regression guard, after the work: ✗ failed: `npm test` exits 0",
      "repair cycle: fix adds two numbers",
      "regression guard, after the repair cycle: ✓ passed: `npm test` exits 0",
    ]);
  });
});
