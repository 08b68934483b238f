import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { foldEvents } from "@/server/events/fold";
import { EventStore } from "@/server/events/store";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { logger } from "@/server/logger";
import { AiSdkModel, createOfflineModel } from "@/server/model";
import { startFakeModelServer } from "@/server/model/fake-openai/server";
import type { AgentModel } from "@/server/model/types";
import { createEmptyRepository } from "@/server/projects/git-repository";
import { DEFAULT_LIMITS } from "@/server/riva/limits";
import { DockerSandboxProvider } from "@/server/sandbox";
import { createTestDb, seedSession } from "@/server/testing/test-db";
import { Orchestrator } from "./orchestrator";

/**
 * The orchestrator with every real part: SQLite, the Docker engine, and the AI SDK talking HTTP to the
 * fake model server. A second Orchestrator over the same database stands in for a restarted server.
 */
let fakeModel: Awaited<ReturnType<typeof startFakeModelServer>>;
let repoDir: string;
let repoPath: string;
const sandboxes = new DockerSandboxProvider();
const actor = { userId: "u1", name: "Ada" };

beforeAll(async () => {
  fakeModel = await startFakeModelServer({ port: 0 });
  repoDir = await mkdtemp(path.join(tmpdir(), "arbor-orch-"));
  repoPath = path.join(repoDir, "project.git");
  await createEmptyRepository(repoPath, "Orchestrated");
});

afterAll(async () => {
  await fakeModel.close();
  await rm(repoDir, { recursive: true, force: true });
});

let db: PrismaClient;
let cleanup: () => Promise<void>;
let sessionId: string;

beforeEach(async () => {
  ({ db, cleanup } = await createTestDb());
  sessionId = (await seedSession(db)).session.id;
  return async () => {
    await (await sandboxes.get(sessionId))?.dispose();
    await cleanup();
  };
});

function orchestrator(model: AgentModel) {
  const store = new EventStore(db);
  return new Orchestrator({
    log: store,
    model,
    sandboxes,
    limits: DEFAULT_LIMITS,
    clock: Date.now,
    commandTimeoutMs: 30_000,
    sandboxImage: "arbor-sandbox:latest",
    logger,
    workspaceOf: async () => ({ repoPath, branch: `arbor/session-${sessionId}` }),
    runningRuns: async () =>
      (await db.run.findMany({ where: { status: "RUNNING" } })).map((run) => ({
        runId: run.id,
        sessionId: run.sessionId,
      })),
  });
}

/** Approves every question as a person would, until the run ends; returns the kinds answered. */
async function approveUntilEnded(orch: Orchestrator, runId: string): Promise<string[]> {
  const kinds: string[] = [];
  for (let i = 0; i < 600; i++) {
    const run = await db.run.findUniqueOrThrow({ where: { id: runId } });
    if (run.status !== "RUNNING") {
      await orch.idle();
      return kinds;
    }
    const pending = await db.approval.findFirst({ where: { sessionId, status: "PENDING" } });
    if (pending) {
      kinds.push(pending.kind);
      await orch.decide({ sessionId, approvalId: pending.id, decision: "approved", reason: null, actor });
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the run did not end");
}

const realModel = () => new AiSdkModel({ baseUrl: fakeModel.url, modelName: "fake", timeoutMs: 10_000 });

async function waitForPendingApproval() {
  for (let i = 0; i < 200; i++) {
    const approval = await db.approval.findFirst({ where: { sessionId, status: "PENDING" } });
    if (approval) return approval;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("no approval was requested");
}

describe("Orchestrator with Docker, SQLite and the fake model server", () => {
  it("decomposes, waits for approval, runs each child in the sandbox and verifies the run", async () => {
    const orch = orchestrator(realModel());
    const { runId } = await orch.startRun({
      sessionId,
      task: "run `cat /etc/arbor-sandbox` and then run `ls README.md`",
      mode: "agent",
      actor,
    });
    const approval = await waitForPendingApproval();
    await orch.decide({ sessionId, approvalId: approval.id, decision: "approved", reason: null, actor });
    await orch.idle();

    const store = new EventStore(db);
    const view = foldEvents(await store.read(sessionId));
    expect(view.runs[runId]).toMatchObject({ status: "VERIFIED", model: { offline: false } });
    const children = Object.values(view.intentions).filter((intention) => intention.depth === 1);
    expect(children.map((child) => child.status)).toEqual(["VERIFIED", "VERIFIED"]);
    expect(children[0]?.cycles[0]?.output).toContain("arbor-sandbox");
    expect(children[1]?.cycles[0]?.output).toContain("README.md");
    const calls = (await store.read(sessionId)).filter((event) => event.body.type === "llm-called");
    expect(calls.length).toBe(3); // one plan, one action per child
    expect(fakeModel.requests.length).toBeGreaterThanOrEqual(3);
  });

  it("works a two-level decomposition: a compound child is decomposed again, with a second approval", async () => {
    const orch = orchestrator(realModel());
    const task = "run `echo top > top.txt` and {run `echo b > b.txt` and run `cat top.txt b.txt`}";
    const { runId } = await orch.startRun({ sessionId, task, mode: "agent", actor });
    const answered = await approveUntilEnded(orch, runId);
    expect(answered).toEqual(["decomposition", "command", "decomposition", "command"]);

    const view = foldEvents(await new EventStore(db).read(sessionId));
    expect(view.runs[runId]?.status).toBe("VERIFIED");
    const byDepth = (depth: number) =>
      Object.values(view.intentions).filter((intention) => intention.depth === depth);
    expect(byDepth(1).map((intention) => intention.what)).toEqual([
      "run `echo top > top.txt`",
      "run `echo b > b.txt` and run `cat top.txt b.txt`",
    ]);
    expect(byDepth(2).map((intention) => intention.status)).toEqual(["VERIFIED", "VERIFIED"]);
    expect(byDepth(1)[1]?.decisions[0]).toMatchObject({
      decision: "decompose",
      reason: expect.stringContaining("compound"),
    });
    // The grandchild reads a file its cousin wrote: one workspace for the whole run.
    expect(byDepth(2)[1]?.cycles[0]?.output).toBe("top\nb\n");
    expect(byDepth(2)[1]?.contract).toEqual([{ kind: "TESTS_PASS", command: "cat top.txt b.txt" }]);
  });

  it("retries a failing child, finds it cannot be split, and fails the run with no intention ACTIVE", async () => {
    const orch = orchestrator(createOfflineModel());
    const { runId } = await orch.startRun({
      sessionId,
      task: "run `false` and then run `echo unreachable`",
      mode: "agent",
      actor,
    });
    const approval = await waitForPendingApproval();
    await orch.decide({ sessionId, approvalId: approval.id, decision: "approved", reason: null, actor });
    await orch.idle();
    const run = await db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run.status).toBe("FAILED");
    expect(run.reason).toContain("2 failed cycles (last: exit code 1)");
    expect(run.reason).toContain("cannot be decomposed further");
    expect(await db.cycle.count({ where: { runId } })).toBe(2);
    expect(await db.intention.count({ where: { runId, status: "ACTIVE" } })).toBe(0);
  });

  it("keeps a pending approval across a restart and continues when it is answered", async () => {
    const before = orchestrator(createOfflineModel());
    const { runId } = await before.startRun({
      sessionId,
      task: "run `echo one` and then run `echo two`",
      mode: "agent",
      actor,
    });
    const approval = await waitForPendingApproval();

    // A new orchestrator over the same database: what a server restart leaves.
    const after = orchestrator(createOfflineModel());
    expect(await after.resumeInterrupted()).toBe(1);
    expect((await db.approval.findUniqueOrThrow({ where: { id: approval.id } })).status).toBe("PENDING");
    await after.decide({ sessionId, approvalId: approval.id, decision: "approved", reason: null, actor });
    await after.idle();
    expect((await db.run.findUniqueOrThrow({ where: { id: runId } })).status).toBe("VERIFIED");
    await before.stop(sessionId, runId);
  });

  it("stops a run waiting for approval and fails its open intentions with the reason", async () => {
    const orch = orchestrator(createOfflineModel());
    const { runId } = await orch.startRun({
      sessionId,
      task: "run `echo a` and then run `echo b`",
      mode: "agent",
      actor,
    });
    await waitForPendingApproval();
    await orch.stop(sessionId, runId);
    const run = await db.run.findUniqueOrThrow({ where: { id: runId } });
    expect([run.status, run.reason]).toEqual(["STOPPED", "stopped by the user"]);
    expect(await db.intention.count({ where: { runId, status: { in: ["ACTIVE", "PENDING"] } } })).toBe(0);
  });

  it("refuses a second run while one is going, and an approval answered twice", async () => {
    const orch = orchestrator(createOfflineModel());
    await orch.startRun({ sessionId, task: "run `echo a` and then run `echo b`", mode: "agent", actor });
    await expect(orch.startRun({ sessionId, task: "again", mode: "agent", actor })).rejects.toThrow(
      "already in progress",
    );
    const approval = await waitForPendingApproval();
    await orch.decide({ sessionId, approvalId: approval.id, decision: "rejected", reason: "no", actor });
    await expect(
      orch.decide({ sessionId, approvalId: approval.id, decision: "approved", reason: null, actor }),
    ).rejects.toThrow("already answered");
    await orch.idle();
  });
});
