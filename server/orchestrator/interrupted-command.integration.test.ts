import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import { EventStore } from "@/server/events/store";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { logger } from "@/server/logger";
import { AiSdkModel } from "@/server/model/ai-sdk-model";
import { createEmptyRepository } from "@/server/projects/git-repository";
import { DockerSandboxProvider } from "@/server/sandbox";
import { fold } from "@/testing/crash-soak/soak-run";
import { createTestDb, seedSession } from "@/testing/db/test-db";
import { ofType } from "@/testing/events/events";
import { type FakeModelServer, startFakeModelServer } from "@/testing/fake-model/server";
import { testOrchestrator } from "@/testing/harness/orchestrator-deps";
import { OutputSoFarFiles } from "./output-so-far-files";

/**
 * Issue #15.7 with every real part: the server (a child process: the orchestrator, SQLite, Docker, the
 * fake model over HTTP) is `kill -9`-ed while a command that writes is running, after it printed three
 * lines. The restarted server (a new Orchestrator over the same database and data directory) does not
 * run it again: it asks, and the card's question says how long it ran and shows those lines. Only the
 * person's approval runs it again, once; the run keeps the model the person picked, not the server's
 * default.
 */

const DRIVER = path.resolve("testing/crash-soak/interrupt-driver.ts");
/** The driver imports modules marked `server-only`: resolve the marker as Next.js's server bundles do. */
const SERVER_ONLY_LOADER = path.resolve("testing/server-only/loader.mjs");
const COMMAND = "echo tick 1 && echo tick 2 && echo tick 3 && sleep 8 && echo once >> marker.txt";

let db: PrismaClient;
let dbFile = "";
let cleanupDb: () => Promise<void> = async () => undefined;
let sessionId = "";
let dir = "";
let repoPath = "";
let fake: FakeModelServer;
const sandboxes = new DockerSandboxProvider();
const person = { userId: "p1", name: "Ada" };

beforeAll(async () => {
  const test = await createTestDb();
  db = test.db;
  dbFile = test.file;
  cleanupDb = test.cleanup;
  sessionId = (await seedSession(db)).session.id;
  dir = await mkdtemp(path.join(tmpdir(), "arbor-interrupt-"));
  repoPath = path.join(dir, "project.git");
  await createEmptyRepository(repoPath, "interrupt");
  fake = await startFakeModelServer({ port: 0 });
});

afterAll(async () => {
  await (await sandboxes.get(sessionId))?.dispose();
  await fake?.close();
  await cleanupDb();
  await rm(dir, { recursive: true, force: true });
});

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, ms = 60_000) {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const events = () => new EventStore(db).read(sessionId);

it("kill -9 during a command that writes: after the restart it asks with its run time and output, runs again only when approved, on the same model", async () => {
  const soFarDir = path.join(dir, "output-so-far");
  const child: ChildProcess = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "--import",
      SERVER_ONLY_LOADER,
      DRIVER,
      dbFile,
      sessionId,
      repoPath,
      fake.url,
      soFarDir,
      `run \`${COMMAND}\``,
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise((resolve) => child.on("exit", resolve));
  try {
    // The command is running and its three lines reached the server (and its data directory).
    await until("the command's output to be kept", async () => {
      const started = ofType(await events(), "cycle-started").find((body) => body.action.content === COMMAND);
      if (!started) return false;
      const kept = await new OutputSoFarFiles(soFarDir).read(started.cycleId);
      return kept?.text.includes("tick 3") ? kept : false;
    });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  } catch (error) {
    console.error(stderr.slice(-4_000));
    throw error;
  } finally {
    child.kill("SIGKILL");
  }
  await exited;
  const killedAt = Date.now();

  // The restarted server: the person's model choice resolves again from the log; the default differs.
  const model = (name: string) => new AiSdkModel({ baseUrl: fake.url, modelName: name, timeoutMs: 10_000 });
  const orchestrator = testOrchestrator({
    log: new EventStore(db),
    model: model("server-default-model"),
    modelForRun: async (_session, overrides) => model(overrides.modelName ?? "server-default-model"),
    sandboxes,
    commandTimeoutMs: 60_000,
    logger,
    outputSoFar: new OutputSoFarFiles(soFarDir),
    workspaceOf: async () => ({ repoPath, branch: `arbor/session-${sessionId}` }),
    runningRuns: async () =>
      (await db.run.findMany({ where: { sessionId, status: "RUNNING" } })).map((run) => ({
        runId: run.id,
        sessionId,
      })),
    checkpointsOf: async () => CheckpointPolicy.parse({ decompositions: "auto", commands: "never-ask" }),
  });
  expect(await orchestrator.resumeInterrupted()).toBe(1);

  const request = await until("the interrupted question", async () =>
    ofType(await events(), "approval-requested").find((body) => body.interruption !== undefined),
  );
  expect(request).toMatchObject({ kind: "command", command: COMMAND, confirm: true });
  const interruption = request.interruption;
  expect(interruption?.output).toBe("tick 1\ntick 2\ntick 3\n");
  expect(interruption?.outputChars).toBe("tick 1\ntick 2\ntick 3\n".length);
  // It ran at least the second the test waited after the third line, and no longer than until now.
  expect(interruption?.ranMs).toBeGreaterThanOrEqual(1_000);
  expect(interruption?.ranMs).toBeLessThanOrEqual(Date.now() - killedAt + 60_000);
  expect(interruption?.ranKind).not.toBeNull();
  const cutOff = ofType(await events(), "cycle-result").find((body) => body.interrupted);
  expect(cutOff?.output).toContain("tick 3");
  // Kept only while it mattered: the record is gone once the question is in the log.
  expect(await readdir(soFarDir)).toEqual([]);

  // Not run again without the person: the marker does not appear and no new cycle starts.
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  const box = await sandboxes.get(sessionId);
  expect((await box?.exec("cat marker.txt 2>/dev/null | wc -l"))?.stdout.trim()).toBe("0");
  const cyclesBefore = ofType(await events(), "cycle-started").length;
  expect(fold(await events()).approvals[request.approvalId]?.status).toBe("PENDING");

  await orchestrator.decide({
    sessionId,
    approvalId: request.approvalId,
    decision: "approved",
    reason: null,
    actor: person,
  });
  const runId = request.runId;
  await until(
    "the run to end",
    async () => {
      const run = await db.run.findUnique({ where: { id: runId } });
      return run && run.status !== "RUNNING";
    },
    90_000,
  );
  await orchestrator.idle();

  const all = await events();
  expect(ofType(all, "cycle-started").length).toBe(cyclesBefore + 1);
  expect((await box?.exec("cat marker.txt"))?.stdout).toBe("once\n");
  expect(fold(all).runs[runId]?.status).toBe("VERIFIED");
  // The model the person picked, before and after the kill: never the server's default.
  expect(ofType(all, "run-started")[0]?.model.id).toBe("openai-compatible:picked-model");
  const models = new Set(ofType(all, "llm-called").map((body) => body.modelId));
  expect([...models]).toEqual(["openai-compatible:picked-model"]);
}, 180_000);
