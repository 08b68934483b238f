import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { appRouter } from "@/server/api/root";
import { CheckpointPolicy, readCheckpointPolicy } from "@/server/domain/policy/checkpoints";
import { foldEvents } from "@/server/domain/session/fold";
import { EventStore } from "@/server/events/store";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { logger } from "@/server/logger";
import { createOfflineModel } from "@/server/model";
import type { Orchestrator } from "@/server/orchestrator/orchestrator";
import { scopeGrantsFor } from "@/server/policy/approval/approved-scopes";
import { createEmptyRepository } from "@/server/projects/git-repository";
import { DockerSandboxProvider } from "@/server/sandbox";
import type { Sandbox } from "@/server/sandbox/types";
import { ToolDispatch } from "@/server/tools/dispatch";
import { createTestDb } from "@/testing/db/test-db";
import { testOrchestrator } from "@/testing/harness/orchestrator-deps";
import { intentsFileFor } from "./store";

/**
 * Real SQLite, real Docker, the offline model: intents saved through the router reach a new
 * session's workspace and `select_active_intent`; an edit reaches a session whose run is going;
 * and a scope approved with a decomposition lets writes through the one door without a click until
 * the child's check turns red.
 */

const app = vi.hoisted(() => ({ current: {} as Record<string, unknown> }));
vi.mock("@/server/app-context", () => ({ appContext: () => app.current }));

const sandboxes = new DockerSandboxProvider();
let repoDir: string;
let db: PrismaClient;
let cleanup: () => Promise<void>;
let user: { id: string; name: string; email: string };
let projectId: string;
let store: EventStore;
let orch: Orchestrator;
const sessions: string[] = [];

beforeAll(async () => {
  repoDir = await mkdtemp(path.join(tmpdir(), "arbor-intents-"));
  const repoPath = path.join(repoDir, "project.git");
  await createEmptyRepository(repoPath, "Intents");
  ({ db, cleanup } = await createTestDb());
  user = await db.user.create({ data: { email: "ada@example.com", name: "Ada" } });
  const team = await db.team.create({ data: { name: "Team", personal: true } });
  await db.membership.create({ data: { userId: user.id, teamId: team.id, role: "member" } });
  // Every command asks, so each run waits (RUNNING) with its sandbox up until the test answers.
  const project = await db.project.create({
    data: {
      name: "Intents",
      teamId: team.id,
      repoPath,
      createdById: user.id,
      checkpointPolicy: JSON.stringify({ commands: "ask-always" }),
    },
  });
  projectId = project.id;
  app.current = { sandboxes };
  store = new EventStore(db);
  orch = testOrchestrator({
    log: store,
    // The heuristics under another id: the built-in model answers a plain-English request at once
    // (issue #17.3), and this test needs the decomposition its split proposes, which a person edits.
    model: { ...createOfflineModel(), id: "heuristics-under-test" },
    sandboxes,
    logger,
    // As app-context.ts does it: the project's intents go with the workspace.
    async workspaceOf(sessionId) {
      const session = await db.session.findUniqueOrThrow({
        where: { id: sessionId },
        include: { project: true },
      });
      return {
        repoPath: session.project.repoPath,
        branch: session.branch,
        intentsFile: await intentsFileFor(db, session.projectId),
      };
    },
    async checkpointsOf(sessionId) {
      const session = await db.session.findUniqueOrThrow({
        where: { id: sessionId },
        include: { project: true },
      });
      return readCheckpointPolicy(session.project.checkpointPolicy);
    },
  });
}, 120_000);

afterAll(async () => {
  for (const sessionId of sessions) {
    const run = await db.run.findFirst({ where: { sessionId, status: "RUNNING" } });
    if (run) await orch.stop(sessionId, run.id);
    await (await sandboxes.get(sessionId))?.dispose();
  }
  await orch.idle();
  await cleanup();
  await rm(repoDir, { recursive: true, force: true });
}, 120_000);

const caller = () => appRouter.createCaller({ db, user });

async function startSession(task: string): Promise<{ sessionId: string; runId: string }> {
  const session = await db.session.create({
    data: { projectId, createdById: user.id, title: task, branch: `arbor/intents-${sessions.length}` },
  });
  sessions.push(session.id);
  const { runId } = await orch.startRun({
    sessionId: session.id,
    task,
    mode: "agent",
    actor: { userId: user.id, name: "Ada" },
  });
  return { sessionId: session.id, runId };
}

async function pending(sessionId: string, kind: string) {
  for (let i = 0; i < 600; i++) {
    const found = await db.approval.findFirst({ where: { sessionId, status: "PENDING", kind } });
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no pending ${kind} approval`);
}

async function sandboxOf(sessionId: string): Promise<Sandbox> {
  const sandbox = await sandboxes.get(sessionId);
  if (!sandbox) throw new Error("no sandbox");
  return sandbox;
}

async function cat(sandbox: Sandbox, file: string): Promise<string> {
  return (await sandbox.exec(`cat ${file}`)).stdout;
}

function dispatchFor(sandbox: Sandbox, grants: ReturnType<typeof scopeGrantsFor>) {
  return new ToolDispatch({
    sandbox: async () => sandbox,
    policy: async () => ({ checkpoints: CheckpointPolicy.parse({}), ...grants }),
    timeoutMs: 20_000,
  });
}

describe("project intents in the workspace", () => {
  it("saved through the router, they are in a new session's workspace, and select_active_intent returns them", async () => {
    const created = await caller().intent.create({
      projectId,
      intent: {
        intentId: "INT-001",
        name: "Auth <rework>",
        ownedScope: ["src/auth/**"],
        constraints: ["No external providers"],
        acceptanceCriteria: ["tests in tests/auth pass"],
      },
    });
    expect(created.mirroredTo).toBe(0);
    await expect(
      caller().intent.create({
        projectId,
        intent: { intentId: "INT-001", name: "again", ownedScope: ["x/**"] },
      }),
    ).rejects.toThrow("INT-001 already exists in this project");
    await expect(
      caller().intent.create({
        projectId,
        intent: { intentId: "INT-009", name: "bad", ownedScope: ["../up/**"] },
      }),
    ).rejects.toThrow("not a glob inside the workspace");

    const { sessionId } = await startSession("run `cat .orchestration/active_intents.yaml`");
    await pending(sessionId, "command");
    const sandbox = await sandboxOf(sessionId);
    const file = await cat(sandbox, "/workspace/.orchestration/active_intents.yaml");
    expect(file).toContain('id: "INT-001"');
    expect(file).toContain('- "src/auth/**"');
    // Mirroring is not the session's work: git does not see the file.
    expect((await sandbox.exec("git status --porcelain")).stdout).not.toContain(".orchestration");

    const tools = dispatchFor(sandbox, scopeGrantsFor(foldEvents([]), undefined));
    const selected = await tools.run(
      { tool: "select_active_intent", input: { intent_id: "INT-001" } },
      { activeIntent: null },
    );
    expect(selected.status).toBe("ok");
    expect(selected.output).toContain('<intent id="INT-001" name="Auth &lt;rework&gt;">');
    expect(selected.output).toContain("<path>src/auth/**</path>");
    expect(selected.output).toContain("<constraint>No external providers</constraint>");
    expect(selected.selectedIntent).toEqual({ id: "INT-001", ownedScope: ["src/auth/**"] });

    // The agent's workspace is not trusted: a link planted in the file's place is replaced, never followed.
    await sandbox.exec(
      "echo mine > /tmp/target && rm .orchestration/active_intents.yaml && ln -s /tmp/target .orchestration/active_intents.yaml",
    );
    // An edit reaches the running session at once; a retired intent leaves the file.
    const edited = await caller().intent.update({
      projectId,
      intentId: "INT-001",
      fields: { name: "Auth", ownedScope: ["src/auth/**", "src/jwt.ts"] },
    });
    expect(edited.mirroredTo).toBe(1);
    expect(await cat(sandbox, ".orchestration/active_intents.yaml")).toContain('- "src/jwt.ts"');
    expect(await cat(sandbox, "/tmp/target")).toBe("mine\n");
    expect((await sandbox.exec("test -L .orchestration/active_intents.yaml")).exitCode).toBe(1);
    await caller().intent.create({
      projectId,
      intent: { intentId: "INT-002", name: "Docs", ownedScope: ["docs/**"] },
    });
    await caller().intent.retire({ projectId, intentId: "INT-001" });
    const after = await cat(sandbox, ".orchestration/active_intents.yaml");
    expect(after).toContain('id: "INT-002"');
    expect(after).not.toContain("INT-001");
    const gone = await tools.run(
      { tool: "select_active_intent", input: { intent_id: "INT-001" } },
      { activeIntent: null },
    );
    expect(gone.error?.message).toBe("There is no intent INT-001 (known: INT-002).");
    const listed = await caller().intent.list({ projectId });
    expect(listed.intents.map((intent) => [intent.intentId, intent.status])).toEqual([
      ["INT-001", "RETIRED"],
      ["INT-002", "IN_PROGRESS"],
    ]);
  }, 180_000);

  it("a scope approved with a decomposition: inside passes without asking, outside asks, a red check asks again", async () => {
    const { sessionId, runId } = await startSession("create the util module and then write the docs");
    const proposal = await pending(sessionId, "decomposition");
    await orch.decide({
      sessionId,
      approvalId: proposal.id,
      decision: "approved",
      reason: null,
      actor: { userId: user.id, name: "Ada" },
      children: [
        {
          what: "create the util module",
          acceptance: "the file `src/util.ts` exists",
          ownedScope: ["src/**"],
        },
        { what: "write the docs", acceptance: "the file `docs/readme.md` exists", ownedScope: ["docs/**"] },
      ],
    });
    await pending(sessionId, "command"); // the first child is planned (its contract built) and waits
    const sandbox = await sandboxOf(sessionId);
    const view = async () => foldEvents(await store.read(sessionId, 0));
    const child = Object.values((await view()).intentions).find((i) => i.what === "create the util module");
    if (!child) throw new Error("no child");
    expect(child.scopeApproval).toMatchObject({ approvalId: proposal.id, approvedBy: "Ada" });
    expect(child.contract).toHaveLength(1);
    const context = { activeIntent: { id: child.id, ownedScope: ["**"] }, intentionId: child.id };

    const inside = await dispatchFor(sandbox, scopeGrantsFor(await view(), child.id)).run(
      { tool: "fs.write", input: { path: "src/util.ts", content: "export const one = 1;\n" } },
      context,
    );
    expect(inside).toMatchObject({ status: "ok", gate: { decision: "approve" } });
    expect(await cat(sandbox, "src/util.ts")).toBe("export const one = 1;\n");

    const outside = await dispatchFor(sandbox, scopeGrantsFor(await view(), child.id)).run(
      { tool: "fs.write", input: { path: "docs/readme.md", content: "# docs\n" } },
      context,
    );
    expect(outside).toMatchObject({ status: "ask", gate: { decision: "ask" } });
    expect(outside.gate?.reason).toContain("outside every approved scope");

    // The child's contract fails its check: writes in its scope ask again.
    const criterion = child.contract[0];
    if (!criterion) throw new Error("no criterion");
    await store.append(sessionId, [
      {
        type: "cycle-started",
        runId,
        intentionId: child.id,
        cycleId: "red-cycle",
        index: 0,
        thought: "check",
        action: { type: "COMMAND", content: "true" },
      },
      {
        type: "criteria-checked",
        runId,
        intentionId: child.id,
        cycleId: "red-cycle",
        results: [{ criterion, passed: false, evidence: "missing" }],
      },
    ]);
    const red = await dispatchFor(sandbox, scopeGrantsFor(await view(), child.id)).run(
      { tool: "fs.write", input: { path: "src/util.ts", content: "export const two = 2;\n" } },
      context,
    );
    expect(red).toMatchObject({ status: "ask" });
    expect(red.gate?.reason).toContain("is red");
    expect(await cat(sandbox, "src/util.ts")).toBe("export const one = 1;\n");
  }, 180_000);
});
