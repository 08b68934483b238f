import { configureSqlite, createDb } from "@/server/db";
import { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import { DEFAULT_LIMITS } from "@/server/domain/session/limits";
import { EventStore } from "@/server/events/store";
import { logger } from "@/server/logger";
import { AiSdkModel } from "@/server/model/ai-sdk-model";
import { Orchestrator } from "@/server/orchestrator/orchestrator";
import { OutputSoFarFiles } from "@/server/orchestrator/output-so-far-files";
import { DockerSandboxProvider } from "@/server/sandbox";

/**
 * The process `interrupted-command.integration.test.ts` kills with `kill -9` in the middle of a
 * command: the orchestrator with the real SQLite store, the real Docker sandbox and the fake model over
 * HTTP, as the server runs it. It starts one run on the model the person picked (`picked-model`; the
 * server's own default is another) and drives it until it is killed.
 * Usage: interrupt-driver.ts <db file> <session> <repo> <fake model url> <output-so-far dir> <task>
 */
const [dbFile, sessionId, repoPath, modelUrl, soFarDir, task] = process.argv.slice(2);
if (!dbFile || !sessionId || !repoPath || !modelUrl || !soFarDir || !task)
  throw new Error("usage: interrupt-driver.ts <db> <session> <repo> <model url> <so-far dir> <task>");

const db = createDb(`file:${dbFile}`);
await configureSqlite(db);
const model = (modelName: string) => new AiSdkModel({ baseUrl: modelUrl, modelName, timeoutMs: 10_000 });
const orchestrator = new Orchestrator({
  log: new EventStore(db),
  model: model("server-default-model"),
  modelForRun: async (_session, overrides) => model(overrides.modelName ?? "server-default-model"),
  sandboxes: new DockerSandboxProvider(),
  limits: DEFAULT_LIMITS,
  clock: Date.now,
  commandTimeoutMs: 60_000,
  sandboxImage: "arbor-sandbox:latest",
  logger,
  outputSoFar: new OutputSoFarFiles(soFarDir),
  workspaceOf: async () => ({ repoPath, branch: `arbor/session-${sessionId}` }),
  runningRuns: async () => [],
  checkpointsOf: async () => CheckpointPolicy.parse({ decompositions: "auto", commands: "never-ask" }),
});
const { runId } = await orchestrator.startRun({
  sessionId,
  task,
  mode: "agent",
  actor: { userId: "driver", name: "Driver" },
  modelOverrides: { modelName: "picked-model" },
});
process.stdout.write(`driving ${runId}\n`);
await orchestrator.idle();
process.exit(0);
