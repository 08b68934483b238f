import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { EventStore } from "@/server/events/store";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { logger } from "@/server/logger";
import { createOfflineModel } from "@/server/model";
import { createEmptyRepository } from "@/server/projects/git-repository";
import { DEFAULT_LIMITS } from "@/server/riva/limits";
import { DockerSandboxProvider } from "@/server/sandbox";
import { createTestDb, seedSession } from "@/server/testing/test-db";
import { Orchestrator } from "./orchestrator";

/**
 * The product's actions really go through the tool dispatch: a real Orchestrator, SQLite, Docker and
 * the offline model. A history rewrite is refused by the dispatch's gate without ever reaching a
 * person, and a person's edit cannot turn an approved command into one.
 */
let repoDir: string;
let repoPath: string;
const sandboxes = new DockerSandboxProvider();
const actor = { userId: "u1", name: "Ada" };

beforeAll(async () => {
  repoDir = await mkdtemp(path.join(tmpdir(), "arbor-dispatch-orch-"));
  repoPath = path.join(repoDir, "project.git");
  await createEmptyRepository(repoPath, "Dispatched");
});
afterAll(async () => rm(repoDir, { recursive: true, force: true }));

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

function orchestrator(store: EventStore) {
  return new Orchestrator({
    log: store,
    model: createOfflineModel(),
    sandboxes,
    limits: DEFAULT_LIMITS,
    clock: Date.now,
    commandTimeoutMs: 30_000,
    sandboxImage: "arbor-sandbox:latest",
    logger,
    workspaceOf: async () => ({ repoPath, branch: `arbor/session-${sessionId}` }),
    runningRuns: async () => [],
  });
}

async function settle(
  orch: Orchestrator,
  runId: string,
  answer: (approval: { command: string | null }) => string | undefined,
) {
  for (let i = 0; i < 600; i++) {
    const run = await db.run.findUniqueOrThrow({ where: { id: runId } });
    if (run.status !== "RUNNING") break;
    const pending = await db.approval.findFirst({ where: { sessionId, status: "PENDING" } });
    if (pending) {
      const payload = JSON.parse(pending.payload) as { command?: string };
      const command = answer({ command: payload.command ?? null });
      await orch.decide({
        sessionId,
        approvalId: pending.id,
        decision: "approved",
        reason: null,
        actor,
        ...(command ? { command } : {}),
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await orch.idle();
}

describe("the engine's actions go through the tool dispatch", () => {
  it("refuses a history rewrite at the gate, without asking anyone, and the run goes on to fail", async () => {
    const store = new EventStore(db);
    const orch = orchestrator(store);
    const { runId } = await orch.startRun({
      sessionId,
      task: "run `git commit --amend -m rewritten`",
      mode: "agent",
      actor,
    });
    let asked = 0;
    await settle(orch, runId, () => {
      asked++;
      return undefined;
    });
    expect((await db.run.findUniqueOrThrow({ where: { id: runId } })).status).toBe("FAILED");
    expect(asked).toBe(0);
    const judged = (await store.read(sessionId)).flatMap((event) =>
      event.body.type === "cycle-judged" ? [event.body] : [],
    );
    expect(judged.length).toBeGreaterThan(0);
    for (const cycle of judged) {
      expect(cycle.judgedBy).toBe("policy");
      expect(cycle.reason).toContain("No tool may force-push or rewrite git history");
    }
  });

  it("re-gates a person's edit: an approved command edited into a force-push never runs", async () => {
    const store = new EventStore(db);
    const orch = orchestrator(store);
    const { runId } = await orch.startRun({ sessionId, task: "run `touch made.txt`", mode: "agent", actor });
    await settle(orch, runId, () => "git push --force origin HEAD");
    const events = await store.read(sessionId);
    const results = events.flatMap((event) => (event.body.type === "cycle-result" ? [event.body] : []));
    expect(results.length).toBeGreaterThan(0);
    // Nothing ran: every cycle was blocked before the sandbox.
    for (const result of results) {
      expect(result.exitCode).toBeNull();
      expect(result.error).toContain("No tool may force-push or rewrite git history");
    }
    const sandbox = await sandboxes.get(sessionId);
    const made = await sandbox?.exec("test -e made.txt && echo yes || echo no");
    expect(made?.stdout ?? "no\n").toBe("no\n");
  });
});
