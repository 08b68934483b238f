import { describe, expect, it } from "vitest";
import { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import { foldEvents } from "@/server/domain/session/fold";
import { EventStore } from "@/server/events/store";
import { orchestratorWorld } from "@/testing/harness/orchestrator-world";

/**
 * Stop while a command runs, with every real part: SQLite, the Docker engine and its persistent shell.
 * `sleep 30` is stopped half a second in; the run ends STOPPED well under 5 s and the same sandbox
 * runs the next task.
 */
const world = orchestratorWorld({ repoName: "Stoppable" });
const { actor, sandboxes } = world;
const orchestrator = () =>
  world.orchestrator({
    commandTimeoutMs: 60_000,
    checkpointsOf: async () => CheckpointPolicy.parse({ commands: "never-ask" }),
  });

async function waitFor<T>(what: string, probe: () => Promise<T | null>): Promise<T> {
  for (let i = 0; i < 600; i++) {
    const found = await probe();
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe("Stop while a command runs in the real sandbox", () => {
  it("kills `sleep 30` at once, ends the run STOPPED, and the sandbox runs the next task", async () => {
    const orch = orchestrator();
    const { runId } = await orch.startRun({
      sessionId: world.sessionId,
      task: "run `sleep 30`",
      mode: "agent",
      actor,
    });
    await waitFor("the cycle to start", () => world.db.cycle.findFirst({ where: { runId } }));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const started = performance.now();
    await orch.stop(world.sessionId, runId, actor);
    const stopMs = performance.now() - started;
    console.info(`stop latency through the orchestrator (real Docker): ${Math.round(stopMs)} ms`);
    expect(stopMs).toBeLessThan(2_000);

    const run = await world.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect([run.status, run.reason]).toEqual(["STOPPED", "stopped by Ada"]);
    const cycle = await world.db.cycle.findFirstOrThrow({ where: { runId } });
    expect(cycle).toMatchObject({
      judgment: "UNCLEAR",
      judgedBy: "Ada",
      output: "stopped by Ada while running",
    });
    const duration = (cycle.endedAt?.getTime() ?? 0) - cycle.startedAt.getTime();
    expect(duration).toBeLessThan(5_000);

    const next = await orch.startRun({
      sessionId: world.sessionId,
      task: "run `echo after-stop`",
      mode: "agent",
      actor,
    });
    await waitFor("the next run to end", async () => {
      const ended = await world.db.run.findUniqueOrThrow({ where: { id: next.runId } });
      return ended.status === "RUNNING" ? null : ended;
    });
    await orch.idle();
    const view = foldEvents(await new EventStore(world.db).read(world.sessionId));
    expect(view.runs[next.runId]?.status).toBe("VERIFIED");
    const outputs = Object.values(view.intentions)
      .filter((intention) => intention.runId === next.runId)
      .flatMap((intention) => intention.cycles.map((entry) => entry.output));
    expect(outputs).toContain("after-stop\n");
    // Nothing of the stopped command is left in the container.
    const box = await sandboxes.get(world.sessionId);
    expect((await box?.exec("pgrep -f '^sleep 3[0]' || echo none"))?.stdout).toBe("none\n");
  });
});
