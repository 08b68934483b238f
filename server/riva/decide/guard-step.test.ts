import { describe, expect, it } from "vitest";
import type { CriterionResult } from "@/server/domain/contract/criteria";
import { foldEvents } from "@/server/domain/session/fold";
import type { IntentionView, RunGuardView, RunView, SessionView } from "@/server/domain/session/view";
import { cycle, decomposedRun, sequence } from "@/testing/events/events";
import { greenGuardRun, redGuardRun } from "@/testing/events/guard-runs";
import { guardBefore, guardRepairState, guardSettle } from "./guard-step";
import type { Step } from "./step";

const green = greenGuardRun;
const red = redGuardRun;
const root = (changes: Partial<IntentionView> = {}) =>
  ({
    id: "root",
    runId: "r",
    what: "fix sum.js",
    contract: [],
    decisions: [],
    cycles: [],
    childIds: [],
    baseline: undefined,
    integrationChecks: null,
    ...changes,
  }) as unknown as IntentionView;
/** A guard as the fold leaves it: `afters` every run after the work, the latest also in `after`. */
const guardOf = (
  before: CriterionResult | null,
  afters: CriterionResult[] = [],
  more: Partial<RunGuardView> = {},
): RunGuardView => ({
  command: "npm test",
  before,
  after: afters.at(-1) ?? null,
  afters,
  repairsAllowed: 1,
  repairs: [],
  ...more,
});
const limits = { maxCyclesPerIntention: 5, maxIterations: 10 };
const success = { judgment: "SUCCESS", interrupted: false } as unknown as IntentionView["cycles"][number];
const missed = {
  judgment: "FAILURE",
  judgmentReason: "`sum.js` does not contain `a - b`",
  interrupted: false,
} as unknown as IntentionView["cycles"][number];
const settle = (
  guard: RunGuardView,
  step = verified(),
  intention = step.kind === "settle" ? step.intention : root(),
) => guardSettle({ intentions: { [intention.id]: intention } }, run(guard), step, limits);
const run = (guard?: RunView["guard"]) =>
  ({
    id: "r",
    rootId: "root",
    mode: "agent",
    intent: { codebase: { testCommand: "npm test" } },
    guard,
  }) as unknown as RunView;
const verified = (intention = root()): Step => ({
  kind: "settle",
  intention,
  status: "VERIFIED",
  reason: "all hold — evidence: red before the work, green after",
  evidence: "red-to-green",
});

describe("guardBefore: the project's tests once, just before the run's first work", () => {
  const act: Step = { kind: "act", intention: root(), previousAttempts: [] };
  const viewOf = (...intentions: IntentionView[]) => ({
    intentions: Object.fromEntries(intentions.map((intention) => [intention.id, intention])),
  });

  it("is due before the first step that works on the workspace", () => {
    expect(guardBefore(viewOf(root()), run(), root(), act)).toMatchObject({
      kind: "guard",
      phase: "before",
      command: "npm test",
    });
    const baseline: Step = { kind: "baseline", intention: root() };
    expect(guardBefore(viewOf(root()), run(), root(), baseline)).toMatchObject({ kind: "guard" });
  });
  it("waits while the run only plans or asks (the decomposition card comes first)", () => {
    const plan: Step = {
      kind: "plan",
      intention: root(),
      verdict: { yes: false, reason: "" },
    } as unknown as Step;
    expect(guardBefore(viewOf(root()), run(), root(), plan)).toBeNull();
    expect(
      guardBefore(viewOf(root()), run(), root(), { kind: "await-approval", approvalId: "a" }),
    ).toBeNull();
  });
  it("never mid-run (a log from before the guard) nor twice", () => {
    const worked = root({ id: "child", cycles: [{}] as unknown as IntentionView["cycles"] });
    expect(guardBefore(viewOf(root(), worked), run(), root(), act)).toBeNull();
    const checked = root({ id: "child", baseline: { results: [], skipped: [] } });
    expect(guardBefore(viewOf(root(), checked), run(), root(), act)).toBeNull();
    expect(guardBefore(viewOf(root()), run(guardOf(green)), root(), act)).toBeNull();
  });
});

describe("guardSettle: a root's VERIFIED waits for the guard's second run", () => {
  it("asks for the run after the work first", () => {
    expect(settle(guardOf(green))).toMatchObject({ kind: "guard", phase: "after" });
  });
  it("green → red with no repair left (an older log) turns the VERIFIED into FAILED with the reason", () => {
    const step = settle(guardOf(green, [red], { repairsAllowed: 0 }));
    expect(step).toMatchObject({ kind: "settle", status: "FAILED" });
    expect(step.kind === "settle" && step.reason).toContain("regression guard");
    expect(step.kind === "settle" && step.evidence).toBeUndefined();
  });
  it("a guard that held keeps the VERIFIED and its evidence, and says what it saw", () => {
    const step = settle(guardOf(red, [green]));
    expect(step).toMatchObject({ kind: "settle", status: "VERIFIED", evidence: "red-to-green" });
    expect(step.kind === "settle" && step.reason).toContain("pass after the work");
  });
  it("leaves other steps, children's settles and runs without a guard alone", () => {
    const child = verified(root({ id: "child" }));
    expect(guardSettle({ intentions: {} }, run(guardOf(green)), child, limits)).toBe(child);
    expect(guardSettle({ intentions: {} }, run(), verified(), limits)).toMatchObject({ status: "VERIFIED" });
    const failed: Step = { kind: "settle", intention: root(), status: "FAILED", reason: "no" };
    expect(settle(guardOf(green), failed)).toBe(failed);
  });
});

describe("guardSettle: a regression with a repair left gives the root a cycle, not FAILED", () => {
  const worked = root({ cycles: [success] });
  it("a regression → a repair naming the command, the count and the failing test", () => {
    const step = settle(guardOf(green, [red]), verified(worked));
    expect(step).toMatchObject({ kind: "guard-repair" });
    expect(step.kind === "guard-repair" && step.reason).toContain(
      "the project's tests (`npm test`) passed before the work and fail after it (1 failed: adds two numbers)",
    );
  });
  it("after the repair cycle the guard runs again: an earlier run after the work is never reused", () => {
    const repaired = guardOf(green, [red], { repairs: [{ reason: "r", cyclesBefore: 1 }] });
    expect(settle(repaired, verified(root({ cycles: [success, success] })))).toMatchObject({
      kind: "guard",
      phase: "after",
    });
  });
  it("the latest run counts: held after the repair → VERIFIED, saying a repair cycle fixed it", () => {
    const step = settle(guardOf(green, [red, green], { repairs: [{ reason: "r", cyclesBefore: 1 }] }));
    expect(step).toMatchObject({ kind: "settle", status: "VERIFIED", evidence: "red-to-green" });
    expect(step.kind === "settle" && step.reason).toContain("after 1 repair cycle");
  });
  it("a second regression with no repair left → FAILED with both runs' evidence", () => {
    const step = settle(guardOf(green, [red, red], { repairs: [{ reason: "r", cyclesBefore: 1 }] }));
    expect(step).toMatchObject({ kind: "settle", status: "FAILED" });
    const reason = step.kind === "settle" ? step.reason : "";
    expect(reason).toContain("after 1 repair cycle (run 1 after the work: the project's tests");
    expect(reason.match(/1 failed: adds two numbers/g)).toHaveLength(2);
  });
  it("a decomposed root gets no repair cycle: FAILED, saying why", () => {
    const step = settle(guardOf(green, [red]), verified(root({ childIds: ["c1"] })));
    expect(step).toMatchObject({ kind: "settle", status: "FAILED" });
    expect(step.kind === "settle" && step.reason).toContain("no repair cycle is given for a decomposed root");
  });
  it("no repair when the run's cycle limits are spent (at the limit, not one past it)", () => {
    const full = root({ cycles: Array(5).fill(success) });
    const step = settle(guardOf(green, [red]), verified(full));
    expect(step).toMatchObject({ kind: "settle", status: "FAILED" });
    expect(step.kind === "settle" && step.reason).toContain("no action cycle is left");
    expect(settle(guardOf(green, [red]), verified(root({ cycles: Array(4).fill(success) })))).toMatchObject({
      kind: "guard-repair",
    });
  });
});

describe("guardRepairState: the repair cycle, from the log", () => {
  const repairing = (cycles: IntentionView["cycles"]) =>
    guardRepairState(
      run(guardOf(green, [red], { repairs: [{ reason: "guard saw: adds two numbers", cyclesBefore: 1 }] })),
      root({ cycles }),
    );
  it("is due while the root has no cycle since the repair", () => {
    expect(repairing([success])).toEqual({ kind: "due", reason: "guard saw: adds two numbers" });
  });
  it("the repair cycle must pass the task's own check again: a miss is FAILED", () => {
    const state = repairing([success, missed]);
    expect(state).toMatchObject({ kind: "failed" });
    expect(state?.reason).toContain(
      "its repair cycle did not pass the task's own check: `sum.js` does not contain",
    );
    expect(state?.reason).toContain("1 failed: adds two numbers");
  });
  it("a repair cycle that passed its check leaves the settle to the guard; no repair: nothing", () => {
    expect(repairing([success, success])).toBeNull();
    expect(guardRepairState(run(guardOf(green, [red])), root({ cycles: [success] }))).toBeNull();
  });
});

describe("repairs recorded in the log: a resume gives the same answer", () => {
  const leafRun = () => decomposedRun().filter((body) => !("parentId" in body && body.parentId === "root"));
  const guardEvent = (phase: "before" | "after", result: CriterionResult, repairs?: number) => ({
    type: "regression-guard-checked" as const,
    runId: "run-1",
    intentionId: "root",
    phase,
    command: "npm test",
    result,
    ...(repairs === undefined ? {} : { repairs }),
  });
  it("the before run records the repairs allowed; the repair event records where it came", () => {
    const view = foldEvents(
      sequence([
        ...leafRun(),
        guardEvent("before", green, 1),
        ...cycle("run-1", "root", "cy1", 0),
        guardEvent("after", red),
        {
          type: "regression-guard-repair",
          runId: "run-1",
          intentionId: "root",
          reason: "fix adds two numbers",
        },
      ]),
    );
    const guard = view.runs["run-1"]?.guard;
    expect(guard).toMatchObject({ repairsAllowed: 1, afters: [red], after: red });
    expect(guard?.repairs).toEqual([{ reason: "fix adds two numbers", cyclesBefore: 1 }]);
    const rootView = view.intentions.root as IntentionView;
    expect(guardRepairState(view.runs["run-1"] as RunView, rootView)).toMatchObject({ kind: "due" });
  });
  it("an old log (no repairs recorded, one run after) replays exactly as before: FAILED", () => {
    const view = foldEvents(
      sequence([
        ...leafRun(),
        guardEvent("before", green),
        ...cycle("run-1", "root", "cy1", 0),
        guardEvent("after", red),
      ]),
    );
    const guard = view.runs["run-1"]?.guard;
    expect(guard).toMatchObject({ repairsAllowed: 0, before: green, after: red, afters: [red], repairs: [] });
    expect(settle(guard as RunGuardView, verified(view.intentions.root))).toMatchObject({
      kind: "settle",
      status: "FAILED",
    });
  });
});

describe("guardSettle: a guard that could not run before the work", () => {
  it("is not run again after it; the VERIFIED says why it stood aside", () => {
    const before: CriterionResult = { ...green, passed: false, couldNotRun: "npm: not found" };
    const step = settle(guardOf(before));
    expect(step).toMatchObject({ kind: "settle", status: "VERIFIED" });
    expect(step.kind === "settle" && step.reason).toContain("could not run before the work (npm: not found)");
    expect(step.kind === "settle" && step.reason).not.toContain("setup");
  });

  it("says when the session's setup did not run: the likely reason the test runner is missing", () => {
    const before: CriterionResult = { ...green, passed: false, couldNotRun: "`vitest` is not installed" };
    const intention = root();
    const environment = (status: "ok" | "failed" | "skipped") =>
      ({ setup: { command: "npm ci", status } }) as unknown as SessionView["environment"];
    const reasonWith = (status: "ok" | "failed" | "skipped") => {
      const step = guardSettle(
        { intentions: { root: intention }, environment: environment(status) },
        run(guardOf(before)),
        verified(intention),
        limits,
      );
      return step.kind === "settle" ? step.reason : "";
    };
    expect(reasonWith("skipped")).toContain(
      "the project's setup command (`npm ci`) was skipped in this session, so its dependencies may be missing",
    );
    expect(reasonWith("failed")).toContain("(`npm ci`) failed in this session");
    expect(reasonWith("ok")).not.toContain("setup command");
  });
});
