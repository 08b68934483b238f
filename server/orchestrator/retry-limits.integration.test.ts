import { describe, expect, it } from "vitest";
import { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import { DEFAULT_LIMITS } from "@/server/domain/session/limits";
import { AiSdkModel } from "@/server/model/ai-sdk-model";
import { orchestratorWorld } from "@/testing/harness/orchestrator-world";

/**
 * Issue #16.5: a model answering 429 every time, or never answering, kept runs going 10–16 minutes
 * against a 300 s wall clock. Here the wall clock is 4 s; retries, their backoff (5 s, 10 s, … for a
 * 429) and a request that hangs (the model's own timeout is 20 s) must all end inside it.
 */
const world = orchestratorWorld({ repoName: "RetryLimits", fakeModel: true });
const WALL_CLOCK_MS = 4_000;
const SLACK_MS = 3_000;

async function runAgainst(scenario: string) {
  const orch = world.orchestrator({
    model: new AiSdkModel({
      baseUrl: world.fakeModel.url,
      modelName: "fake-model",
      timeoutMs: 20_000,
      headers: { "x-fake-scenario": scenario },
    }),
    limits: { ...DEFAULT_LIMITS, wallClockMs: WALL_CLOCK_MS },
    checkpointsOf: async () => CheckpointPolicy.parse({ decompositions: "auto" }),
  });
  const started = Date.now();
  const { runId } = await orch.startRun({
    sessionId: world.sessionId,
    task: "run `ls`",
    mode: "agent",
    actor: world.actor,
  });
  await world.approveUntilEnded(orch, runId);
  const elapsed = Date.now() - started;
  const run = await world.db.run.findUniqueOrThrow({ where: { id: runId } });
  return { run, elapsed };
}

describe("retries and backoff count against the run's wall clock", () => {
  it("a model that answers 429 every time: the run ends FAILED at the wall clock, not after the backoff", async () => {
    const { run, elapsed } = await runAgainst("http-429");
    expect(run.status).toBe("FAILED");
    expect(run.reason).toBe(`limit reached: wall clock (${WALL_CLOCK_MS / 1000} s of working time)`);
    expect(elapsed).toBeLessThan(WALL_CLOCK_MS + SLACK_MS);
  });

  it("a model that never answers: the hanging request is cut at the wall clock", async () => {
    const { run, elapsed } = await runAgainst("hang");
    expect(run.status).toBe("FAILED");
    expect(run.reason).toBe(`limit reached: wall clock (${WALL_CLOCK_MS / 1000} s of working time)`);
    expect(elapsed).toBeLessThan(WALL_CLOCK_MS + SLACK_MS);
  });
});
