import { describe, expect, it } from "vitest";
import { DEFAULT_LIMITS } from "@/server/domain/session/limits";
import type { CycleView } from "@/server/domain/session/view";
import { canVerifyDirectly, failureSummary, isStalled, shouldDecompose } from "./heuristics";

const cycle = (over: Partial<CycleView>): CycleView => ({
  id: "c",
  approvalId: null,
  gate: null,
  index: 0,
  thought: "",
  action: { type: "COMMAND", content: "make", target: null, tool: null, input: null },
  testFirst: false,
  interrupted: false,
  exitCode: 1,
  output: "boom",
  timedOut: false,
  error: null,
  durationMs: 1,
  judgment: "FAILURE",
  judgedBy: "auto",
  judgmentReason: "exit code 1",
  reflection: null,
  checks: null,
  ...over,
});

describe("cycles a crash cut off", () => {
  it("are neither misses nor attempts: two of them trigger no decomposition", () => {
    const cut = cycle({ judgment: "UNCLEAR", interrupted: true, judgmentReason: "interrupted" });
    expect(shouldDecompose([cut, cut, cut, cut, cut], DEFAULT_LIMITS).yes).toBe(false);
    expect(
      shouldDecompose([cycle({ judgment: "UNCLEAR" }), cycle({ judgment: "UNCLEAR" })], DEFAULT_LIMITS).yes,
    ).toBe(true);
  });
});

describe("canVerifyDirectly", () => {
  it.each([
    ["run `ls` and then run `pwd`", "compound"],
    ["install deps; run the tests", "compound"],
    ["add a login page", "no verifiable indicator"],
    [`run \`true\` ${"x".repeat(220)}`, "longer than 200"],
  ])("says no to %j (%s)", (what, reason) => {
    const verdict = canVerifyDirectly({ what, acceptance: "" });
    expect(verdict.yes).toBe(false);
    expect(verdict.reason).toContain(reason);
  });

  it.each([
    ["run `npm test`", ""],
    ["run `cd a && make`", ""],
    ["create notes.txt", "the file notes.txt exists"],
    ["build the project", "the command exits 0"],
  ])("says yes to %j with acceptance %j", (what, acceptance) => {
    expect(canVerifyDirectly({ what, acceptance }).yes).toBe(true);
  });
});

describe("shouldDecompose", () => {
  it("retries after a single failure", () => {
    expect(shouldDecompose([cycle({})], DEFAULT_LIMITS).yes).toBe(false);
  });

  it("fires on two failures", () => {
    expect(shouldDecompose([cycle({ output: "a" }), cycle({ output: "b" })], DEFAULT_LIMITS)).toEqual({
      yes: true,
      reason: "2 failed cycles (last: exit code 1)",
    });
  });

  it("fires on two unclear outcomes", () => {
    const unclear = cycle({ judgment: "UNCLEAR", exitCode: null });
    expect(shouldDecompose([unclear, { ...unclear, output: "other" }], DEFAULT_LIMITS).reason).toBe(
      "2 unclear outcomes",
    );
  });

  it("fires when the reflection suggests it", () => {
    expect(
      shouldDecompose([cycle({ reflection: "This is too large; split it." })], DEFAULT_LIMITS).reason,
    ).toContain("reflection");
  });

  it("fires at the max cycles", () => {
    const cycles = [cycle({ judgment: "UNCLEAR", output: "1" })];
    expect(shouldDecompose(cycles, { ...DEFAULT_LIMITS, maxCyclesPerIntention: 1 }).reason).toContain(
      "max cycles",
    );
  });
});

describe("isStalled and failureSummary", () => {
  it("sees the same action with the same result twice", () => {
    expect(isStalled([cycle({}), cycle({})])).toBe(true);
    expect(isStalled([cycle({}), cycle({ output: "different" })])).toBe(false);
    expect(isStalled([cycle({})])).toBe(false);
  });

  it("caps the summary and keeps the newest attempts", () => {
    const cycles = Array.from({ length: 100 }, (_, index) =>
      cycle({ action: { type: "COMMAND", content: `cmd-${index}`, target: null, tool: null, input: null } }),
    );
    const summary = failureSummary(cycles, 500);
    expect(summary.length).toBeLessThanOrEqual(500);
    expect(summary).toContain("cmd-99");
    expect(summary).not.toContain("cmd-0`");
  });
});

describe("the stall rule names what happened (issue #16.6)", () => {
  const partial = cycle({
    judgment: "PARTIAL",
    exitCode: 0,
    output: "3 of 5 passed",
    judgmentReason: "some tests fail",
  });

  it("two identical PARTIAL results are a stall, not '2 unclear outcomes'", () => {
    expect(shouldDecompose([partial, partial], DEFAULT_LIMITS)).toEqual({
      yes: true,
      reason: "stalled: `make` gave the same PARTIAL result twice: some tests fail",
    });
  });

  it("counts PARTIAL and UNCLEAR apart when they differ", () => {
    const unclear = cycle({ judgment: "UNCLEAR", exitCode: null, output: "?" });
    expect(shouldDecompose([partial, unclear], DEFAULT_LIMITS).reason).toBe(
      "1 partial result and 1 unclear outcome",
    );
    expect(shouldDecompose([partial, { ...partial, output: "4 of 5 passed" }], DEFAULT_LIMITS).reason).toBe(
      "2 partial results",
    );
  });

  it("reads the whole history: the same PARTIAL after an escalation to another tier is a stall at once", () => {
    const earlierTier = [partial, partial];
    const thisTier = [partial];
    expect(shouldDecompose(thisTier, DEFAULT_LIMITS).yes).toBe(false);
    expect(shouldDecompose(thisTier, DEFAULT_LIMITS, [...earlierTier, ...thisTier]).reason).toBe(
      "stalled: `make` gave the same PARTIAL result 3 times: some tests fail",
    );
  });
});
