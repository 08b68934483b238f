import { describe, expect, it } from "vitest";
import type { EventInput } from "@/server/domain/events/schema";
import { foldEvents } from "@/server/domain/session/fold";
import { DEFAULT_LIMITS, type RivaLimits } from "@/server/domain/session/limits";
import { cycle, decomposedRun, discovered, model, requestedCycle, sequence } from "@/testing/events/events";
import { nextStep } from "./next-step";

const START = Date.UTC(2026, 10, 22);
const step = (bodies: EventInput[], limits: Partial<RivaLimits> = {}, now = START + 60_000) =>
  nextStep(foldEvents(sequence(bodies)), "run-1", { limits: { ...DEFAULT_LIMITS, ...limits }, now });

const started = (what = "t"): EventInput[] => [
  { type: "run-started", runId: "run-1", task: what, mode: "agent", model },
  discovered("run-1"),
  {
    type: "intention-created",
    runId: "run-1",
    intentionId: "root",
    parentId: null,
    what,
    acceptance: "",
    depth: 0,
    position: 0,
  },
];
const directly = (intentionId: string): EventInput => ({
  type: "decision-made",
  runId: "run-1",
  intentionId,
  decision: "verify-directly",
  reason: "x",
});
const failed = (intentionId: string, cycleId: string, exitCode = 1, command = "false"): EventInput[] => [
  {
    type: "cycle-started",
    runId: "run-1",
    intentionId,
    cycleId,
    index: 0,
    thought: "",
    action: { type: "COMMAND", content: command, target: null },
  },
  {
    type: "cycle-result",
    runId: "run-1",
    intentionId,
    cycleId,
    exitCode,
    output: `out ${cycleId}`,
    timedOut: false,
    error: null,
    durationMs: 1,
  },
  {
    type: "cycle-judged",
    runId: "run-1",
    intentionId,
    cycleId,
    judgment: "FAILURE",
    judgedBy: "auto",
    reason: `exit code ${exitCode}`,
  },
];

describe("nextStep: planning", () => {
  it("discovers the intent before anything else", () => {
    const bodies = started("run `a`").filter((body) => body.type !== "intent-discovered");
    expect(step(bodies)).toMatchObject({ kind: "discover", root: { id: "root" } });
  });

  it("plans a fresh compound root with can_verify_directly = no", () => {
    expect(step(started("run `a` and then run `b`"))).toMatchObject({
      kind: "plan",
      intention: { id: "root" },
      verdict: { yes: false, reason: expect.stringContaining("compound") },
    });
  });

  it("plans a single explicit command with can_verify_directly = yes", () => {
    expect(step(started("run `npm test`"))).toMatchObject({ kind: "plan", verdict: { yes: true } });
  });

  it("waits while a decomposition is pending", () => {
    expect(step(decomposedRun().slice(0, 7))).toEqual({ kind: "await-approval", approvalId: "ap1" });
  });

  it("fails the intention with the person's reason when its decomposition is rejected", () => {
    const bodies = decomposedRun().slice(0, 7);
    bodies.push({
      type: "approval-decided",
      runId: "run-1",
      approvalId: "ap1",
      decision: "rejected",
      decidedBy: { userId: "u", name: "Ada" },
      reason: "too broad",
    });
    expect(step(bodies)).toMatchObject({
      kind: "settle",
      intention: { id: "root" },
      status: "FAILED",
      reason: "Decomposition rejected by Ada: too broad",
    });
  });
});

describe("nextStep: depth-first work of children", () => {
  it("works the first child, then the second", () => {
    expect(step(decomposedRun())).toMatchObject({ kind: "plan", intention: { id: "c1" } });
    const afterFirst = [...decomposedRun(), ...requestedCycle("run-1", "c1", "cy1", "a")];
    expect(step(afterFirst)).toMatchObject({
      kind: "settle",
      intention: { id: "c1" },
      status: "VERIFIED",
      evidence: "ran-as-requested",
    });
    afterFirst.push({
      type: "intention-status-changed",
      runId: "run-1",
      intentionId: "c1",
      status: "VERIFIED",
      reason: "exit code 0",
    });
    expect(step(afterFirst)).toMatchObject({ kind: "plan", intention: { id: "c2" } });
  });

  it("fails the parent when a child fails, naming the child", () => {
    const bodies: EventInput[] = [
      ...decomposedRun(),
      {
        type: "intention-status-changed",
        runId: "run-1",
        intentionId: "c1",
        status: "FAILED",
        reason: "exit code 2",
      },
    ];
    expect(step(bodies)).toMatchObject({
      kind: "settle",
      intention: { id: "root" },
      status: "FAILED",
      reason: 'child 1 "run `a`" failed: exit code 2',
    });
  });

  it("verifies the parent by integration when every child is verified, then ends the run VERIFIED", () => {
    const bodies: EventInput[] = [
      ...decomposedRun(),
      {
        type: "intention-status-changed",
        runId: "run-1",
        intentionId: "c1",
        status: "VERIFIED",
        reason: null,
        evidence: "red-to-green",
      },
      {
        type: "intention-status-changed",
        runId: "run-1",
        intentionId: "c2",
        status: "VERIFIED",
        reason: null,
        evidence: "ran-as-requested",
      },
    ];
    expect(step(bodies)).toMatchObject({
      kind: "settle",
      intention: { id: "root" },
      status: "VERIFIED",
      reason: expect.stringContaining("integration"),
      // A parent rests on its children: the weakest of their kinds.
      evidence: "ran-as-requested",
    });
    bodies.push({
      type: "intention-status-changed",
      runId: "run-1",
      intentionId: "root",
      status: "VERIFIED",
      reason: "ok",
    });
    // The root's verification reports DONE into the delivery gate first.
    expect(step(bodies)).toMatchObject({ kind: "report-delivery", state: "DONE", intention: { id: "root" } });
    bodies.push({
      type: "delivery-reported",
      runId: "run-1",
      state: "DONE",
      source: "verification",
      reason: "all 3 intentions verified",
    });
    // Then the run's model judges the delivery (once), then the run ends.
    expect(step(bodies)).toMatchObject({ kind: "delivery-check", intention: { id: "root" } });
    bodies.push({
      type: "delivery-reported",
      runId: "run-1",
      state: "DONE",
      source: "delivery_check",
      reason: "done",
    });
    expect(step(bodies)).toEqual({ kind: "end", status: "VERIFIED", reason: "all 3 intentions verified" });
  });
});

describe("nextStep: cycles, retries and decomposition triggers", () => {
  const base = (): EventInput[] => [...decomposedRun(), directly("c1")];

  it("retries after one failure", () => {
    expect(step([...base(), ...failed("c1", "x")])).toMatchObject({
      kind: "act",
      intention: { id: "c1" },
      previousAttempts: [expect.stringContaining("false")],
    });
  });

  it("requires decomposition after two failures, with the trigger and a failure summary", () => {
    const result = step([...base(), ...failed("c1", "x", 1, "a"), ...failed("c1", "y", 2, "b")]);
    expect(result).toMatchObject({
      kind: "decompose",
      intention: { id: "c1" },
      trigger: "2 failed cycles (last: exit code 2)",
    });
    expect(result.kind === "decompose" && result.summary).toContain("`b` → FAILURE");
  });

  it("names a stall when the same action gave the same result twice", () => {
    const result = step([
      ...base(),
      ...failed("c1", "x"),
      ...failed("c1", "x2").map((event) => ("output" in event ? { ...event, output: "out x" } : event)),
    ]);
    expect(result).toMatchObject({
      kind: "decompose",
      trigger: expect.stringContaining("same action with the same result"),
    });
  });

  it("closes a cycle that started but never recorded a result (a crash mid-action)", () => {
    const bodies = [...decomposedRun(), ...cycle("run-1", "c1", "cy1", 0).slice(0, 3)];
    expect(step(bodies)).toMatchObject({ kind: "close-interrupted-cycle", cycleId: "cy1" });
  });

  it("fails rather than decomposing past the max depth", () => {
    const result = step([...base(), ...failed("c1", "x"), ...failed("c1", "y", 3)], { maxDepth: 1 });
    expect(result).toMatchObject({
      kind: "settle",
      status: "FAILED",
      reason: expect.stringContaining("max depth (1)"),
    });
  });

  it("fails an intention deeper than the max depth", () => {
    expect(step(decomposedRun(), { maxDepth: 0 })).toMatchObject({
      kind: "settle",
      intention: { id: "c1" },
      status: "FAILED",
      reason: "limit reached: max depth (0)",
    });
  });
});

describe("nextStep: run limits", () => {
  it("ends the run at the max iterations", () => {
    const result = step([...decomposedRun(), directly("c1"), ...failed("c1", "x")], { maxIterations: 1 });
    expect(result).toEqual({
      kind: "end",
      status: "FAILED",
      reason: "limit reached: max iterations (1 action cycles)",
    });
  });

  it("ends the run on the wall clock, not counting time spent waiting for a person", () => {
    const events = decomposedRun();
    // All events are one second apart from START; the approval waited from 00:00:05 to 00:00:06.
    expect(step(events, { wallClockMs: 10_000 }, START + 9_000)).toMatchObject({ kind: "plan" });
    expect(step(events, { wallClockMs: 10_000 }, START + 12_000)).toEqual({
      kind: "end",
      status: "FAILED",
      reason: "limit reached: wall clock (10 s of working time)",
    });
  });

  it("is done once the run has ended", () => {
    expect(
      step([...started(), { type: "run-ended", runId: "run-1", status: "STOPPED", reason: "stopped" }]),
    ).toEqual({ kind: "done" });
  });
});
