import { describe, expect, it } from "vitest";
import { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import { foldEvents } from "@/server/domain/session/fold";
import { DEFAULT_LIMITS } from "@/server/domain/session/limits";
import { MemoryEventLog } from "@/server/events/log";
import type { AgentModel } from "@/server/model/types";
import { ofType } from "@/testing/events/events";
import { FakeSandboxProvider, scriptedModel } from "@/testing/harness/fakes";
import { runningRunsOfLog, testOrchestrator } from "@/testing/harness/orchestrator-deps";
import type { Orchestrator } from "./orchestrator";

/**
 * Issue #15: time the server was down counts against a run's wall clock (a crash does not extend a
 * run's limit), except while a person's answer was pending, which is waiting time and never counts.
 * Two orchestrators over one log stand for the server before and after the restart; one clock,
 * moved forward between them, stands for the downtime.
 */
const SESSION = "s1";
const START = Date.parse("2026-01-01T09:00:00Z");
const DOWN_MS = DEFAULT_LIMITS.wallClockMs + 100_000;

function world() {
  let now = START;
  const log = new MemoryEventLog(() => now);
  let hang = false;
  let acting: () => void = () => undefined;
  const asked = new Promise<void>((resolve) => {
    acting = resolve;
  });
  const scripted = scriptedModel({
    plan: () => ({ kind: "atomic", thought: "one step" }),
    nextAction: () => ({ thought: "go", command: "make" }),
  });
  // The first server's model is cut off mid-request by the crash: its act call never answers.
  const model: AgentModel = {
    ...scripted,
    nextAction: (input, signal) => {
      if (!hang) return scripted.nextAction(input, signal);
      acting();
      return new Promise(() => undefined);
    },
  };
  const server = (commands: "never-ask" | "ask-always") =>
    testOrchestrator({
      log,
      model,
      sandboxes: new FakeSandboxProvider(() => ({ stdout: "ok" })),
      clock: () => now,
      commandTimeoutMs: 1_000,
      sandboxImage: "fake",
      runningRuns: runningRunsOfLog(log, SESSION),
      checkpointsOf: async () => CheckpointPolicy.parse({ commands }),
    });
  return {
    log,
    server,
    asked,
    hangActs: () => {
      hang = true;
    },
    resumeActs: () => {
      hang = false;
    },
    advance: (ms: number) => {
      now += ms;
    },
  };
}

const start = (server: Orchestrator) =>
  server.startRun({
    sessionId: SESSION,
    task: "run `make`",
    mode: "agent",
    actor: { userId: "u1", name: "Ada" },
  });

async function pending(log: MemoryEventLog) {
  for (let i = 0; i < 400; i++) {
    const found = Object.values(foldEvents(await log.read(SESSION)).approvals).find(
      (approval) => approval.status === "PENDING",
    );
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error("the run never asked");
}

describe("time the server was down", () => {
  it("counts against the run's wall clock: a run down past its limit ends, saying how much was downtime", async () => {
    const w = world();
    w.hangActs();
    const { runId } = await start(w.server("never-ask"));
    await w.asked;
    // kill -9: the first server is gone mid-request; the second comes back DOWN_MS later.
    w.advance(DOWN_MS);
    w.resumeActs();
    const second = w.server("never-ask");
    expect(await second.resumeInterrupted()).toBe(1);
    await second.idle();

    const events = await w.log.read(SESSION);
    expect(ofType(events, "run-resumed")).toEqual([
      { type: "run-resumed", runId, downMs: DOWN_MS, counted: true },
    ]);
    const run = foldEvents(events).runs[runId];
    expect(run).toMatchObject({ status: "FAILED", downtimeMs: DOWN_MS });
    expect(run?.reason).toBe(
      `limit reached: wall clock (${DEFAULT_LIMITS.wallClockMs / 1000} s of working time, ${DOWN_MS / 1000} s of it while the server was down)`,
    );
  });

  it("does not count while a person's answer was pending: that was waiting time, and the run goes on", async () => {
    const w = world();
    const { runId } = await start(w.server("ask-always"));
    const card = await pending(w.log);
    w.advance(DOWN_MS);
    const second = w.server("ask-always");
    expect(await second.resumeInterrupted()).toBe(1);
    await second.decide({
      sessionId: SESSION,
      approvalId: card.id,
      decision: "approved",
      reason: null,
      actor: { userId: "u1", name: "Ada" },
    });
    await second.idle();

    const events = await w.log.read(SESSION);
    expect(ofType(events, "run-resumed")).toEqual([
      { type: "run-resumed", runId, downMs: DOWN_MS, counted: false },
    ]);
    expect(foldEvents(events).runs[runId]).toMatchObject({ status: "VERIFIED" });
  });
});
