import { configureSqlite, createDb } from "@/server/db";
import { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import { emptySessionView, foldEvents } from "@/server/domain/session/fold";
import { DEFAULT_LIMITS } from "@/server/domain/session/limits";
import { EventStore } from "@/server/events/store";
import { logger } from "@/server/logger";
import { createOfflineModel } from "@/server/model";
import { Orchestrator } from "@/server/orchestrator/orchestrator";
import { OutputSoFarFiles } from "@/server/orchestrator/output-so-far-files";
import { DockerSandboxProvider } from "@/server/sandbox";
import { SOAK_PERSON, soakTask } from "./soak-run";

/**
 * The process the crash soak kills: the orchestrator with the real SQLite store and the real Docker
 * sandbox, as the server runs it, minus the web server. It resumes the session's running run, or
 * starts run k+1 when none is running and fewer than `runs` exist, answers every question as the
 * scripted person, and exits when the run has ended. Usage: driver.ts <db file> <session> <repo> <runs>
 */
const [dbFile, sessionId, repoPath, runsArg] = process.argv.slice(2);
if (!dbFile || !sessionId || !repoPath || !runsArg)
  throw new Error("usage: driver.ts <db> <session> <repo> <runs>");

const db = createDb(`file:${dbFile}`);
await configureSqlite(db);
const log = new EventStore(db);
// Modules loaded and the database open: what follows is the recovery itself.
process.stdout.write("booted\n");
const orchestrator = new Orchestrator({
  log,
  model: createOfflineModel(),
  sandboxes: new DockerSandboxProvider(),
  // A run's wall clock counts the time the server was down between a kill and the restart; the
  // soak's runs span many restarts on a shared machine, so its clock is not what is tested here.
  limits: { ...DEFAULT_LIMITS, wallClockMs: 3_600_000 },
  clock: Date.now,
  commandTimeoutMs: 30_000,
  sandboxImage: "arbor-sandbox:latest",
  logger,
  // As the server keeps it in its data directory: next to the database.
  outputSoFar: new OutputSoFarFiles(`${dbFile}.output-so-far`),
  workspaceOf: async () => ({ repoPath, branch: `arbor/session-${sessionId}` }),
  runningRuns: async () =>
    (await db.run.findMany({ where: { sessionId, status: "RUNNING" } })).map((run) => ({
      runId: run.id,
      sessionId: run.sessionId,
    })),
  // Decompositions and commands need no click: the only questions are about cut-off commands.
  checkpointsOf: async () => CheckpointPolicy.parse({ decompositions: "auto", commands: "never-ask" }),
});

const view = () => log.read(sessionId).then((events) => foldEvents(events, emptySessionView()));

let runId: string | null = (await db.run.findFirst({ where: { sessionId, status: "RUNNING" } }))?.id ?? null;
if (runId) await orchestrator.resumeInterrupted();
else {
  const count = await db.run.count({ where: { sessionId } });
  if (count >= Number(runsArg)) process.exit(0);
  runId = (
    await orchestrator.startRun({ sessionId, task: soakTask(count + 1), mode: "agent", actor: SOAK_PERSON })
  ).runId;
}
process.stdout.write(`driving ${runId}\n`);

for (;;) {
  const current = await view();
  if (current.runs[runId]?.status !== "RUNNING") break;
  for (const approval of Object.values(current.approvals)) {
    if (approval.status !== "PENDING") continue;
    await orchestrator.decide({
      sessionId,
      approvalId: approval.id,
      decision: "approved",
      reason: null,
      actor: SOAK_PERSON,
    });
  }
  await new Promise((resolve) => setTimeout(resolve, 100));
}
await orchestrator.idle();
process.stdout.write(`ended ${runId}\n`);
await db.$disconnect();
process.exit(0);
