import { describe, expect, it } from "vitest";
import type { CriterionResult } from "@/server/domain/contract/criteria";
import type { IntentionView, RunView } from "@/server/domain/session/view";
import { guardBefore, guardSettle } from "./guard-step";
import type { Step } from "./step";

const criterion = { kind: "TESTS_PASS", command: "npm test" } as const;
const green: CriterionResult = { criterion, passed: true, evidence: "ok" };
const red: CriterionResult = { criterion, passed: false, evidence: "1 failed" };
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
    expect(
      guardBefore(viewOf(root()), run({ command: "npm test", before: green, after: null }), root(), act),
    ).toBeNull();
  });
});

describe("guardSettle: a root's VERIFIED waits for the guard's second run", () => {
  it("asks for the run after the work first", () => {
    expect(guardSettle(run({ command: "npm test", before: green, after: null }), verified())).toMatchObject({
      kind: "guard",
      phase: "after",
    });
  });
  it("green → red turns the VERIFIED into FAILED with the reason", () => {
    const step = guardSettle(run({ command: "npm test", before: green, after: red }), verified());
    expect(step).toMatchObject({ kind: "settle", status: "FAILED" });
    expect(step.kind === "settle" && step.reason).toContain("regression guard");
    expect(step.kind === "settle" && step.evidence).toBeUndefined();
  });
  it("a guard that held keeps the VERIFIED and its evidence, and says what it saw", () => {
    const step = guardSettle(run({ command: "npm test", before: red, after: green }), verified());
    expect(step).toMatchObject({ kind: "settle", status: "VERIFIED", evidence: "red-to-green" });
    expect(step.kind === "settle" && step.reason).toContain("pass after the work");
  });
  it("leaves other steps, children's settles and runs without a guard alone", () => {
    const child = verified(root({ id: "child" }));
    expect(guardSettle(run({ command: "npm test", before: green, after: null }), child)).toBe(child);
    expect(guardSettle(run(), verified())).toMatchObject({ kind: "settle", status: "VERIFIED" });
    const failed: Step = { kind: "settle", intention: root(), status: "FAILED", reason: "no" };
    expect(guardSettle(run({ command: "npm test", before: green, after: null }), failed)).toBe(failed);
  });
});

describe("guardSettle: a guard that could not run before the work", () => {
  it("is not run again after it; the VERIFIED says why it stood aside", () => {
    const before: CriterionResult = { ...red, couldNotRun: "npm: not found" };
    const step = guardSettle(run({ command: "npm test", before, after: null }), verified());
    expect(step).toMatchObject({ kind: "settle", status: "VERIFIED" });
    expect(step.kind === "settle" && step.reason).toContain("could not run before the work (npm: not found)");
  });
});
