import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach } from "vitest";
import type { SessionView } from "@/server/domain/session/view";
import { EventStore } from "@/server/events/store";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { logger } from "@/server/logger";
import { type AgentModel, AiSdkModel, createOfflineModel } from "@/server/model";
import type { Orchestrator, OrchestratorDeps } from "@/server/orchestrator/orchestrator";
import { createEmptyRepository } from "@/server/projects/git-repository";
import { foldSessionLog } from "@/server/runtime/session-runtime";
import { DockerSandboxProvider } from "@/server/sandbox";
import { type FakeModelServer, startFakeModelServer } from "@/testing/fake-model/server";
import { createTestDbOn, seedSession } from "../db/test-db";
import { testOrchestrator } from "./orchestrator-deps";

/**
 * What the orchestrator's integration tests share: a bare project repository, a fresh SQLite file and
 * session per test, the real Docker engine (each test's sandbox disposed after it) and, when asked,
 * the fake model server over HTTP. Call it at the top level of a test file: it registers its hooks.
 */
export interface OrchestratorWorld {
  readonly db: PrismaClient;
  /** The connection string of `db` (for a second client, e.g. another instance's leases). */
  readonly dbUrl: string;
  readonly sessionId: string;
  readonly repoPath: string;
  readonly sandboxes: DockerSandboxProvider;
  /** The fake OpenAI-compatible server (only with `fakeModel: true`). */
  readonly fakeModel: FakeModelServer;
  readonly actor: { userId: string; name: string };
  /** A real Orchestrator over this test's database: the offline model unless `overrides` say else. */
  orchestrator(overrides?: Partial<OrchestratorDeps>): Orchestrator;
  /** The AI SDK model talking to the fake server with a scripted scenario. */
  scriptedModel(scenario: string, modelName?: string): AgentModel;
  /** The session's log folded, as the browser sees it. */
  view(): Promise<SessionView>;
  /** The first PENDING approval of the session (of that kind), waiting up to 10 s for it. */
  waitForApproval(kind?: string): Promise<{ id: string; kind: string; payload: string }>;
  /** Approves every question as a person would until the run ends (60 s at most); the kinds answered. */
  approveUntilEnded(orch: Orchestrator, runId: string): Promise<string[]>;
}

export function orchestratorWorld(options: {
  repoName: string;
  fakeModel?: boolean;
  /** Each test's database on this PostgreSQL server instead of a SQLite file. */
  postgresUrl?: string | undefined;
}): OrchestratorWorld {
  const sandboxes = new DockerSandboxProvider();
  let repoDir = "";
  let repoPath = "";
  let fake: FakeModelServer | null = null;
  let db: PrismaClient | null = null;
  let dbUrl = "";
  let sessionId = "";

  beforeAll(async () => {
    if (options.fakeModel) fake = await startFakeModelServer({ port: 0 });
    repoDir = await mkdtemp(path.join(tmpdir(), "arbor-world-"));
    repoPath = path.join(repoDir, "project.git");
    await createEmptyRepository(repoPath, options.repoName);
  });
  afterAll(async () => {
    await fake?.close();
    await rm(repoDir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    const test = await createTestDbOn(options.postgresUrl);
    db = test.db;
    dbUrl = test.url;
    sessionId = (await seedSession(test.db)).session.id;
    return async () => {
      await (await sandboxes.get(sessionId))?.dispose();
      await test.cleanup();
    };
  });

  const database = () => {
    if (!db) throw new Error("the test database exists only inside a test");
    return db;
  };

  return {
    get db() {
      return database();
    },
    get dbUrl() {
      return dbUrl;
    },
    get sessionId() {
      return sessionId;
    },
    get repoPath() {
      return repoPath;
    },
    sandboxes,
    get fakeModel() {
      if (!fake) throw new Error("orchestratorWorld was created without { fakeModel: true }");
      return fake;
    },
    actor: { userId: "u1", name: "Ada" },
    orchestrator(overrides = {}) {
      const current = database();
      const session = sessionId;
      return testOrchestrator({
        log: new EventStore(current),
        model: createOfflineModel(),
        sandboxes,
        logger,
        workspaceOf: async () => ({ repoPath, branch: `arbor/session-${session}` }),
        runningRuns: async () =>
          (await current.run.findMany({ where: { status: "RUNNING" } })).map((run) => ({
            runId: run.id,
            sessionId: run.sessionId,
          })),
        ...overrides,
      });
    },
    scriptedModel(scenario, modelName = "fake-model") {
      return new AiSdkModel({
        baseUrl: this.fakeModel.url,
        modelName,
        timeoutMs: 10_000,
        headers: { "x-fake-scenario": scenario },
      });
    },
    async view() {
      return foldSessionLog(new EventStore(database()), sessionId);
    },
    async waitForApproval(kind) {
      for (let i = 0; i < 200; i++) {
        const approval = await database().approval.findFirst({
          where: { sessionId, status: "PENDING", ...(kind ? { kind } : {}) },
        });
        if (approval) return approval;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`no ${kind ?? ""} approval was requested`);
    },
    async approveUntilEnded(orch, runId) {
      const kinds: string[] = [];
      for (let i = 0; i < 1_200; i++) {
        const run = await database().run.findUniqueOrThrow({ where: { id: runId } });
        if (run.status !== "RUNNING") {
          await orch.idle();
          return kinds;
        }
        const pending = await database().approval.findFirst({ where: { sessionId, status: "PENDING" } });
        if (pending) {
          kinds.push(pending.kind);
          const answer = { approvalId: pending.id, decision: "approved", reason: null } as const;
          await orch.decide({ sessionId, ...answer, actor: this.actor });
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error("the run did not end");
    },
  };
}
