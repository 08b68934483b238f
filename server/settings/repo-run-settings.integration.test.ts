import { describe, expect, it } from "vitest";
import { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import { DEFAULT_LIMITS } from "@/server/domain/session/limits";
import { layerCheckpoints } from "@/server/domain/settings/repo-config";
import { personCheckpoints } from "@/server/domain/settings/user-config";
import { orchestratorWorld } from "@/testing/harness/orchestrator-world";
import { commitRepoConfig } from "@/testing/harness/repo-config-commit";
import { repoRunSettings, type ServerRunDefaults, sessionRunBounds } from "./repo-run-settings";

/**
 * The repository layer for run limits, budgets and network (issue #20.3) with a real bare repository,
 * the real Docker engine and the offline model: the default branch's `.arbor/config.yaml` lowers the
 * server's limit and a run ends at it; a looser value is not used.
 */
const world = orchestratorWorld({ repoName: "RepoLimits" });

const SERVER: ServerRunDefaults = {
  limits: DEFAULT_LIMITS,
  budget: null,
  resources: {
    defaults: { cpus: 1, memoryMb: 512, pids: 256, workspaceMb: 1024 },
    caps: { cpus: 2, memoryMb: 1024, pids: 512, workspaceMb: 1024 },
  },
};

const mergeConfig = (text: string) => commitRepoConfig(world.repoPath, text);

async function pointProjectAtRepository() {
  const { projectId } = await world.db.session.findUniqueOrThrow({ where: { id: world.sessionId } });
  return world.db.project.update({ where: { id: projectId }, data: { repoPath: world.repoPath } });
}

describe("a run's CLI user file (issue #20) bounds it as recorded, only ever tighter", () => {
  it("asks before every command and ends at its lower limit; a looser value is ignored, recorded with the reason", async () => {
    // Runs first, before the repository file below exists: the server's limits and a never-ask project.
    const project = CheckpointPolicy.parse({ decompositions: "auto", commands: "never-ask" });
    const orch = world.orchestrator({
      runLimitsOf: (sessionId, cliLayer) => sessionRunBounds(world.db, sessionId, SERVER, cliLayer),
      cliConfigIgnored: async (sessionId, cliLayer) =>
        (await sessionRunBounds(world.db, sessionId, SERVER, cliLayer)).ignored,
      // The orchestrator hands the run's recorded layer over: only then does ask-always count.
      checkpointsOf: async (_sessionId, cliLayer) =>
        personCheckpoints(layerCheckpoints(project, undefined), cliLayer?.checkpoints, "cli").policy,
    });
    const { runId } = await orch.startRun({
      sessionId: world.sessionId,
      task: "run `false`",
      mode: "agent",
      actor: world.actor,
      cliConfig: {
        checkpoints: { commands: "ask-always" },
        limits: { maxIterations: 1, maxDepth: DEFAULT_LIMITS.maxDepth + 1 },
      },
    });
    expect(await world.approveUntilEnded(orch, runId)).toEqual(["command"]);
    const run = await world.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run.status).toBe("FAILED");
    expect(run.reason).toContain("limit reached: max iterations (1 action cycles)");
    const started = await world.db.event.findFirstOrThrow({ where: { runId, type: "run-started" } });
    expect(JSON.parse(started.payload).cliConfig.ignored).toEqual([
      {
        key: "limits.maxDepth",
        value: String(DEFAULT_LIMITS.maxDepth + 1),
        reason: `higher than the server's ${DEFAULT_LIMITS.maxDepth}: your CLI config (~/.config/arbor/config.yaml) may only lower it`,
      },
    ]);
  }, 60_000);
});

describe(".arbor/config.yaml on the default branch bounds runs, only ever tighter", () => {
  it("a lowered iteration limit ends a run at it; a raised depth and open network are ignored", async () => {
    await mergeConfig(
      [
        "limits:",
        "  maxIterations: 1",
        "  maxDepth: 11 # the server's is 10: ignored",
        "budgets:",
        "  maxTokens: 5000",
        "network:",
        "  agent: { mode: open } # the project's is Off: ignored",
        "  setup: { mode: off }",
        "",
      ].join("\n"),
    );
    const project = await pointProjectAtRepository();

    const settings = await repoRunSettings(world.db, project, SERVER);
    expect(settings.limits.value.maxIterations).toBe(1);
    expect(settings.limits.value.maxDepth).toBe(DEFAULT_LIMITS.maxDepth);
    expect(settings.budget.value).toEqual({ maxCostUsd: null, maxTokens: 5000 });
    expect(settings.egress.value.setup.mode).toBe("off");
    expect(settings.egress.value.agent.mode).toBe("off");
    expect(settings.limits.ignored.map((row) => row.key)).toEqual(["limits.maxDepth"]);
    expect(settings.egress.ignored.map((row) => row.key)).toEqual(["network.agent.mode"]);

    // The server's limit would retry the failing command; the repository's lets one cycle run.
    const orch = world.orchestrator({
      runLimitsOf: (sessionId) => sessionRunBounds(world.db, sessionId, SERVER),
      checkpointsOf: async () => CheckpointPolicy.parse({ decompositions: "auto" }),
    });
    const { runId } = await orch.startRun({
      sessionId: world.sessionId,
      task: "run `false`",
      mode: "agent",
      actor: world.actor,
    });
    await world.approveUntilEnded(orch, runId);
    const run = await world.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run.status).toBe("FAILED");
    expect(run.reason).toContain("limit reached: max iterations (1 action cycles)");
    expect(await world.db.cycle.count({ where: { runId } })).toBe(1);
  }, 60_000);
});
