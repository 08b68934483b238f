import { describe, expect, it } from "vitest";
import { foldEvents } from "@/server/events/fold";
import type { EventBody } from "@/server/events/schema";
import { cycle, decomposedRun, model, sequence } from "@/server/testing/events";
import { nextStep } from "./next-step";

const limits = { maxCyclesPerIntention: 3 };
const step = (bodies: EventBody[]) => nextStep(foldEvents(sequence(bodies)), "run-1", limits);

const started: EventBody[] = [
  { type: "run-started", runId: "run-1", task: "t", mode: "agent", model },
  {
    type: "intention-created",
    runId: "run-1",
    intentionId: "root",
    parentId: null,
    what: "t",
    acceptance: "",
    depth: 0,
    position: 0,
  },
];

describe("nextStep", () => {
  it("plans a fresh root", () => {
    expect(step(started)).toMatchObject({ kind: "plan", intention: { id: "root" } });
  });

  it("waits while a decomposition is pending", () => {
    expect(step(decomposedRun().slice(0, 6))).toEqual({ kind: "await-approval", approvalId: "ap1" });
  });

  it("ends the run FAILED with the person's reason when the decomposition is rejected", () => {
    const bodies = decomposedRun().slice(0, 6);
    bodies.push({
      type: "approval-decided",
      runId: "run-1",
      approvalId: "ap1",
      decision: "rejected",
      decidedBy: { userId: "u", name: "Ada" },
      reason: "too broad",
    });
    expect(step(bodies)).toEqual({
      kind: "end",
      status: "FAILED",
      reason: "Decomposition rejected by Ada: too broad",
    });
  });

  it("works the first child, then the second, depth first", () => {
    expect(step(decomposedRun())).toMatchObject({ kind: "plan", intention: { id: "c1" } });
    const afterFirst = [...decomposedRun(), ...cycle("run-1", "c1", "cy1", 0)];
    expect(step(afterFirst)).toMatchObject({ kind: "settle", intention: { id: "c1" }, status: "VERIFIED" });
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
    const bodies: EventBody[] = [
      ...decomposedRun(),
      ...cycle("run-1", "c1", "cy1", 2),
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

  it("verifies the parent when every child is verified, then ends the run VERIFIED", () => {
    const bodies: EventBody[] = [
      ...decomposedRun(),
      {
        type: "intention-status-changed",
        runId: "run-1",
        intentionId: "c1",
        status: "VERIFIED",
        reason: null,
      },
      {
        type: "intention-status-changed",
        runId: "run-1",
        intentionId: "c2",
        status: "VERIFIED",
        reason: null,
      },
    ];
    expect(step(bodies)).toMatchObject({ kind: "settle", intention: { id: "root" }, status: "VERIFIED" });
    bodies.push({
      type: "intention-status-changed",
      runId: "run-1",
      intentionId: "root",
      status: "VERIFIED",
      reason: "ok",
    });
    expect(step(bodies)).toEqual({ kind: "end", status: "VERIFIED", reason: "all 3 intentions verified" });
  });

  it("closes a cycle that started but never recorded a result (a crash mid-action)", () => {
    const bodies = [...decomposedRun(), ...cycle("run-1", "c1", "cy1", 0).slice(0, 3)];
    expect(step(bodies)).toMatchObject({ kind: "close-interrupted-cycle", cycleId: "cy1" });
  });

  it("retries an unclear cycle, and fails the intention at the cycle limit", () => {
    const unclear = (id: string): EventBody[] => [
      {
        type: "cycle-started",
        runId: "run-1",
        intentionId: "c1",
        cycleId: id,
        index: 0,
        thought: "",
        action: { type: "COMMAND", content: "x", target: null },
      },
      {
        type: "cycle-result",
        runId: "run-1",
        intentionId: "c1",
        cycleId: id,
        exitCode: null,
        output: "",
        timedOut: false,
        error: null,
        durationMs: 0,
      },
      {
        type: "cycle-judged",
        runId: "run-1",
        intentionId: "c1",
        cycleId: id,
        judgment: "UNCLEAR",
        judgedBy: "auto",
        reason: "?",
      },
    ];
    const bodies: EventBody[] = [
      ...decomposedRun(),
      {
        type: "decision-made",
        runId: "run-1",
        intentionId: "c1",
        decision: "verify-directly",
        reason: "child",
      },
      ...unclear("a"),
    ];
    expect(step(bodies)).toMatchObject({ kind: "act", intention: { id: "c1" } });
    bodies.push(...unclear("b"), ...unclear("c"));
    expect(step(bodies)).toMatchObject({
      kind: "settle",
      status: "FAILED",
      reason: "limit reached: max cycles per intention (3)",
    });
  });

  it("is done once the run has ended", () => {
    expect(
      step([...started, { type: "run-ended", runId: "run-1", status: "STOPPED", reason: "stopped" }]),
    ).toEqual({ kind: "done" });
  });
});
