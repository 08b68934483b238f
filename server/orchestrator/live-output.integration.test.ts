import { describe, expect, it } from "vitest";
import { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import type { LiveCommandOutput } from "@/server/domain/session/live-output";
import { commandOutput } from "@/server/events/command-output";
import { orchestratorWorld } from "@/testing/harness/orchestrator-world";

/**
 * A run's command in the real sandbox (SQLite, Docker, the persistent shell): its output reaches the
 * session's live readers while it runs and before its result is stored, never as events; the stored
 * result has all of it; the run records the sandbox's toolchains and the project's resources.
 */
const world = orchestratorWorld({ repoName: "Live" });
const { actor } = world;

describe("live output and the sandbox description, end to end on the server", () => {
  it("streams a running command to the session's readers, then stores the whole output once", async () => {
    const orch = world.orchestrator({
      checkpointsOf: async () => CheckpointPolicy.parse({ commands: "never-ask" }),
      workspaceOf: async () => ({
        repoPath: world.repoPath,
        branch: `arbor/session-${world.sessionId}`,
        resources: { cpus: 0.5, memoryMb: 512, pids: 128, workspaceMb: 64 },
      }),
    });
    const heard: (LiveCommandOutput & { at: number })[] = [];
    const stop = commandOutput.subscribe(world.sessionId, (output) => {
      heard.push({ ...output, at: Date.now() });
    });
    try {
      const { runId } = await orch.startRun({
        sessionId: world.sessionId,
        // No variables or substitutions: "never ask" lets it run without a person.
        task: `run \`${[1, 2, 3, 4, 5, 6].map((i) => `echo tick ${i}; sleep 0.25`).join("; ")}\``,
        mode: "agent",
        actor,
      });
      for (let i = 0; i < 1_200; i++) {
        const run = await world.db.run.findUniqueOrThrow({ where: { id: runId } });
        if (run.status !== "RUNNING") break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await orch.idle();
      const view = await world.view();
      const run = view.runs[runId];
      expect(run?.status).toBe("VERIFIED");
      const cycle = Object.values(view.intentions).flatMap((intention) => intention.cycles)[0];
      expect(cycle?.output).toBe("tick 1\ntick 2\ntick 3\ntick 4\ntick 5\ntick 6\n");

      const updates = heard.filter((output) => !output.done);
      // Several updates while it ran, growing, for the cycle that ran it; then one `done`.
      expect(updates.length).toBeGreaterThanOrEqual(3);
      expect(updates.every((output) => output.cycleId === cycle?.id)).toBe(true);
      expect(updates[0]?.text).toMatch(/^tick 1\n/);
      expect(updates.at(-1)?.text).toBe(cycle?.output);
      expect(heard.at(-1)).toMatchObject({ cycleId: cycle?.id, done: true });
      // The first update came long before the command's ~1.5 s were over.
      const first = updates[0]?.at ?? 0;
      const last = heard.at(-1)?.at ?? 0;
      expect(last - first).toBeGreaterThan(1_000);
      // None of it is in the log: the events hold the output once, in the cycle's result.
      const types = (await world.db.event.findMany({ where: { sessionId: world.sessionId } })).map(
        (event) => event.type,
      );
      expect(types.filter((type) => type === "cycle-result")).toHaveLength(1);

      // The run says what the sandbox has and the limits it runs with.
      const tools = Object.fromEntries(run?.sandboxInfo?.toolchains.map((t) => [t.name, t.version]) ?? []);
      expect(tools.node).toMatch(/^24\./);
      expect(tools.python3).toMatch(/^3\./);
      expect(run?.sandboxInfo?.resources).toEqual({ cpus: 0.5, memoryMb: 512, pids: 128, workspaceMb: 64 });
    } finally {
      stop();
    }
  });
});
