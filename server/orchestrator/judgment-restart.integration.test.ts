import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { foldEvents } from "@/server/events/fold";
import { EventStore } from "@/server/events/store";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { logger } from "@/server/logger";
import { createOfflineModel } from "@/server/model";
import { CheckpointPolicy } from "@/server/policy/checkpoints";
import { createEmptyRepository } from "@/server/projects/git-repository";
import { DEFAULT_LIMITS } from "@/server/riva/limits";
import { DockerSandboxProvider } from "@/server/sandbox";
import { createTestDb, seedSession } from "@/server/testing/test-db";
import { Orchestrator } from "./orchestrator";

/**
 * judge_action asked of a person, with every real part (SQLite, Docker): the question survives a
 * restart (a second Orchestrator over the same database), the action is not run again, and the
 * person's override is what the log records.
 */
const sandboxes = new DockerSandboxProvider();
const actor = { userId: "u1", name: "Ada" };
let repoDir: string;
let repoPath: string;
let db: PrismaClient;
let cleanup: () => Promise<void>;
let sessionId: string;

beforeAll(async () => {
  repoDir = await mkdtemp(path.join(tmpdir(), "arbor-judge-"));
  repoPath = path.join(repoDir, "project.git");
  await createEmptyRepository(repoPath, "Judged");
});
afterAll(() => rm(repoDir, { recursive: true, force: true }));
beforeEach(async () => {
  ({ db, cleanup } = await createTestDb());
  sessionId = (await seedSession(db)).session.id;
  return async () => {
    await (await sandboxes.get(sessionId))?.dispose();
    await cleanup();
  };
});

function orchestrator() {
  return new Orchestrator({
    log: new EventStore(db),
    model: createOfflineModel(),
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
    checkpointsOf: async () => CheckpointPolicy.parse({ commands: "never-ask", judgeAction: "ask" }),
  });
}

async function pendingApproval() {
  for (let i = 0; i < 400; i++) {
    const approval = await db.approval.findFirst({ where: { sessionId, status: "PENDING" } });
    if (approval) return approval;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("no approval was requested");
}

describe("judge_action across a restart", () => {
  it("keeps the question pending, never re-runs the action, and records the person's override", async () => {
    const before = orchestrator();
    const { runId } = await before.startRun({ sessionId, task: "run `echo once`", mode: "agent", actor });
    const first = await pendingApproval();
    expect(first.kind).toBe("judgment");

    const after = orchestrator();
    expect(await after.resumeInterrupted()).toBe(1);
    expect((await db.approval.findUniqueOrThrow({ where: { id: first.id } })).status).toBe("PENDING");
    await after.decide({
      sessionId,
      approvalId: first.id,
      decision: "rejected",
      reason: "not yet",
      answer: { question: "judge_action", judgment: "FAILURE" },
      actor,
    });
    // The override is a miss: the agent acts again and asks again; this time the person confirms.
    let second = await pendingApproval();
    while (second.id === first.id) second = await pendingApproval();
    await after.decide({ sessionId, approvalId: second.id, decision: "approved", reason: null, actor });
    await after.idle();

    const view = foldEvents(await new EventStore(db).read(sessionId));
    expect(view.runs[runId]?.status).toBe("VERIFIED");
    const cycles = Object.values(view.intentions).flatMap((intention) => intention.cycles);
    expect(cycles.map((cycle) => [cycle.judgment, cycle.judgedBy])).toEqual([
      ["FAILURE", "Ada"],
      ["SUCCESS", "Ada"],
    ]);
    expect(cycles[0]?.judgmentReason).toBe("Ada overrode SUCCESS with FAILURE: not yet (auto: exit code 0)");
    const judgedRows = await db.cycle.findMany({ where: { runId }, orderBy: { index: "asc" } });
    expect(judgedRows.map((row) => row.judgedBy)).toEqual(["Ada", "Ada"]);
    await before.stop(sessionId, runId);
  });
});
