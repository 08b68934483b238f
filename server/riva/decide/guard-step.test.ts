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
    what: "fix sum.js",
    contract: [],
    decisions: [],
    cycles: [],
    childIds: [],
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

describe("guardBefore: the project's tests once, before any work of the run", () => {
  it("is due on an untouched root", () => {
    expect(guardBefore(run(), root())).toMatchObject({ kind: "guard", phase: "before", command: "npm test" });
  });
  it("never mid-run (a log from before the guard) nor twice", () => {
    expect(guardBefore(run(), root({ decisions: [{ decision: "direct", reason: "" }] }))).toBeNull();
    expect(guardBefore(run(), root({ childIds: ["c"] }))).toBeNull();
    expect(guardBefore(run({ command: "npm test", before: green, after: null }), root())).toBeNull();
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
