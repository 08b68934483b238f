import { describe, expect, it } from "vitest";
import { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import { foldEvents } from "@/server/domain/session/fold";
import { MemoryEventLog } from "@/server/events/log";
import type { AgentModel } from "@/server/model/types";
import type { RunModelChoice } from "@/server/settings/run-model";
import { ofType } from "@/testing/events/events";
import { FakeSandboxProvider, scriptedModel } from "@/testing/harness/fakes";
import { runningRunsOfLog, testOrchestrator } from "@/testing/harness/orchestrator-deps";
import { modelMismatch, recordedOverrides, tiersMismatch } from "./run-restore";

/** A restart restores the run's model, tiers, mode and reasoning exactly, or stops it saying why. */

function named(id: string, provider = "openai-compatible"): AgentModel & { provider: string } {
  const model = scriptedModel({
    plan: () => ({ kind: "atomic", thought: "one step" }),
    nextAction: () => ({ thought: "go", command: "make" }),
  });
  const rename = <T extends { call: object }>(answer: T): T => ({
    ...answer,
    call: { ...answer.call, modelId: id, offline: false },
  });
  return {
    ...model,
    id,
    label: id,
    offline: false,
    provider,
    plan: async (input, signal) => rename(await model.plan(input, signal)),
    nextAction: async (input, signal) => rename(await model.nextAction(input, signal)),
  };
}

describe("the pure checks", () => {
  it("accepts the same model and names both when they differ", () => {
    expect(modelMismatch({ id: "m1", offline: false, provider: "openai" }, named("m1", "openai"))).toBeNull();
    expect(modelMismatch({ id: "m1", offline: false }, named("m1", "anthropic"))).toBeNull();
    expect(modelMismatch({ id: "m1", offline: false, provider: "openai" }, named("m2", "openai"))).toBe(
      "it started on openai m1 and the settings now give openai m2",
    );
    expect(
      modelMismatch({ id: "m1", offline: false, provider: "openai" }, named("m1", "anthropic")),
    ).not.toBeNull();
  });

  it("tiers: none and none match; tiers recorded but none now does not", () => {
    expect(tiersMismatch(null, null)).toBeNull();
    expect(tiersMismatch({ escalation: "escalate-only", tiers: [] }, null)).toMatch(/declare none/);
  });

  it("an old log without recorded overrides restores with none; a garbled one is refused", () => {
    expect(recordedOverrides({ startedWith: null })).toEqual({});
    expect(recordedOverrides({ startedWith: { modelName: "m1", timeoutMs: 5_000 } })).toEqual({
      modelName: "m1",
      timeoutMs: 5_000,
    });
    expect(() => recordedOverrides({ startedWith: { modelName: "" } })).toThrow(/cannot be read back/);
  });
});

describe("an orchestrator restarted mid-run", () => {
  const SESSION = "s1";
  const orchestrator = (log: MemoryEventLog, modelForRun: (overrides: RunModelChoice) => AgentModel) =>
    testOrchestrator({
      log,
      model: named("server-default"),
      sandboxes: new FakeSandboxProvider(() => ({ stdout: "ok" })),
      commandTimeoutMs: 1_000,
      sandboxImage: "fake",
      runningRuns: runningRunsOfLog(log, SESSION),
      // Every command asks, so the first server stops at a card: the crash point.
      checkpointsOf: async () => CheckpointPolicy.parse({ commands: "ask-always" }),
      modelForRun: async (_session, overrides) => modelForRun(overrides),
    });

  async function startAndCrash(log: MemoryEventLog) {
    const first = orchestrator(log, (overrides) => named(overrides.modelName ?? "settings-model"));
    const { runId } = await first.startRun({
      sessionId: SESSION,
      task: "run `make`",
      mode: "agent",
      reasoning: "on",
      actor: { userId: "u1", name: "Ada" },
      modelOverrides: { modelName: "picked", timeoutMs: 30_000 },
    });
    for (let i = 0; i < 200; i++) {
      const view = foldEvents(await log.read(SESSION));
      if (Object.values(view.approvals).some((approval) => approval.status === "PENDING")) return runId;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    throw new Error("the run never asked");
  }

  it("goes on with the model the person picked, not the settings' model, with its mode and reasoning", async () => {
    const log = new MemoryEventLog(Date.now);
    const runId = await startAndCrash(log);
    expect(ofType(await log.read(SESSION), "run-started")[0]?.startedWith).toEqual({
      modelName: "picked",
      timeoutMs: 30_000,
    });
    const asked: RunModelChoice[] = [];
    const second = orchestrator(log, (overrides) => {
      asked.push(overrides);
      return named(overrides.modelName ?? "settings-model");
    });
    expect(await second.resumeInterrupted()).toBe(1);
    const pending = Object.values(foldEvents(await log.read(SESSION)).approvals).find(
      (a) => a.status === "PENDING",
    );
    if (!pending) throw new Error("no card");
    await second.decide({
      sessionId: SESSION,
      approvalId: pending.id,
      decision: "approved",
      reason: null,
      actor: { userId: "u1", name: "Ada" },
    });
    await second.idle();
    const events = await log.read(SESSION);
    const view = foldEvents(events);
    expect(view.runs[runId]?.status).toBe("VERIFIED");
    expect(asked).toEqual([{ modelName: "picked", timeoutMs: 30_000 }]);
    // The scripted model's own helpers (discovery) name no model; its plan and act calls do.
    const calls = ofType(events, "llm-called").filter(
      (call) => call.stage === "act" || call.stage === "decompose",
    );
    expect(calls.length).toBeGreaterThan(0);
    expect(new Set(calls.map((call) => call.modelId))).toEqual(new Set(["picked"]));
    expect(calls.every((call) => call.reasoning === undefined || call.reasoning === "on")).toBe(true);
  });

  it("stops with the reason when the recorded model cannot be had again, never on another model", async () => {
    const log = new MemoryEventLog(Date.now);
    const runId = await startAndCrash(log);
    const second = orchestrator(log, () => named("someone-else"));
    await second.resumeInterrupted();
    await second.idle();
    const events = await log.read(SESSION);
    const run = foldEvents(events).runs[runId];
    expect(run?.status).toBe("STOPPED");
    expect(run?.reason).toContain(
      "could not be resumed as it started: it started on openai-compatible picked and the settings now give openai-compatible someone-else",
    );
    expect(ofType(events, "llm-called").some((call) => call.modelId === "someone-else")).toBe(false);
  });
});
