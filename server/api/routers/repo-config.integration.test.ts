import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { settingsRouter } from "@/server/api/routers/settings";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { createRepositoryWithFiles } from "@/server/projects/git-repository";
import { projectCheckpoints } from "@/server/settings/repo-config-file";
import { modelForSession } from "@/server/settings/run-model";
import { createSecretBox } from "@/server/settings/secret-box";
import { createTestDb, seedSession } from "@/testing/db/test-db";

// The router reaches the secret box and the environment layer through the app context.
const app = await vi.hoisted(async () => ({
  box: null as unknown,
  environment: {} as Record<string, unknown>,
  runDefaults: (await import("@/testing/harness/run-defaults")).testRunDefaults({
    maxCostUsd: 2,
    maxTokens: null,
  }),
}));
vi.mock("@/server/app-context", () => ({ appContext: () => app }));

/**
 * `.arbor/config.yaml` as a settings layer (issue #20.3), read with git from a real bare repository:
 * main's file counts, a session branch's never does, and a malformed file is skipped with its problem.
 */
let db: PrismaClient;
let cleanup: () => Promise<void>;
let dir: string;

beforeEach(async () => {
  ({ db, cleanup } = await createTestDb());
  dir = await mkdtemp(path.join(tmpdir(), "arbor-repo-config-"));
  app.box = createSecretBox(randomBytes(32));
  // A model server from the environment, so the resolved model is a real (not offline) one.
  app.environment = { provider: "openai-compatible", baseUrl: "http://127.0.0.1:9/v1" };
});
afterEach(async () => {
  await cleanup();
  await rm(dir, { recursive: true, force: true });
});

const git = (args: string[], cwd?: string) =>
  execFileSync("git", ["-c", "user.name=T", "-c", "user.email=t@localhost", ...args], { cwd, stdio: "pipe" });

/** Commits `files` on `branch` of the bare repository (created from main when new), as a push would. */
async function commitOn(repo: string, branch: string, files: Record<string, string>) {
  const work = await mkdtemp(path.join(dir, "work-"));
  git(["clone", "-q", repo, work]);
  git(["checkout", "-q", "-B", branch], work);
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(work, name)), { recursive: true });
    await writeFile(path.join(work, name), text);
  }
  git(["add", "-A"], work);
  git(["commit", "-q", "-m", `on ${branch}`], work);
  git(["push", "-q", "origin", `HEAD:refs/heads/${branch}`], work);
}

async function world(files: Record<string, string>) {
  const owner = await seedSession(db, "owner");
  const repoPath = path.join(dir, "project.git");
  await createRepositoryWithFiles(repoPath, { "README.md": "# p\n", ...files }, "Initial commit");
  const project = await db.project.update({ where: { id: owner.project.id }, data: { repoPath } });
  const caller = settingsRouter.createCaller({
    db,
    user: { id: owner.user.id, name: owner.user.name, email: owner.user.email },
  });
  return { owner, project, repoPath, caller };
}

const MAIN_CONFIG = [
  "project: shop # the CLI's key, ignored by the server",
  "mode: agent",
  "model:",
  "  name: repo-model",
  "checkpoints:",
  "  commands: ask-always",
  "  judgeAction: ask",
  "",
].join("\n");

describe(".arbor/config.yaml on the default branch", () => {
  it("sets the model and checkpoints of runs; a session branch's file does not count", async () => {
    const { owner, project, repoPath, caller } = await world({ ".arbor/config.yaml": MAIN_CONFIG });
    // A session's branch loosens everything: none of it may apply.
    await commitOn(repoPath, "arbor/session-1", {
      ".arbor/config.yaml": "model:\n  name: branch-model\ncheckpoints:\n  commands: never-ask\n",
    });
    await caller.updateProject({
      projectId: project.id,
      settings: {
        provider: null,
        baseUrl: null,
        modelName: "project-model",
        timeoutMs: 7_000,
        apiKey: { action: "keep" },
      },
    });

    const layers = await caller.layers({ projectId: project.id });
    expect(layers.repoConfig).toEqual({ status: "ok", problem: null });
    const model = Object.fromEntries(layers.model.map((row) => [row.field, row]));
    expect(model.modelName).toMatchObject({ value: "repo-model", source: "repo" });
    expect(model.timeoutMs).toMatchObject({ value: "7000 ms", source: "project" });
    const checkpoints = Object.fromEntries(layers.checkpoints.map((row) => [row.field, row]));
    expect(checkpoints.commands).toMatchObject({ value: "ask-always", source: "repo" });
    expect(checkpoints.judgeAction).toMatchObject({ value: "ask", source: "repo" });
    expect(checkpoints.decompositions).toMatchObject({ value: "ask", source: "project" });

    // What a run gets: the model the session's run is built with, and the policy its gates read.
    const runModel = await modelForSession(
      { db, box: createSecretBox(randomBytes(32)), environment: app.environment },
      owner.session.id,
      {},
    );
    expect(runModel.id).toBe("openai-compatible:repo-model");
    const policy = (await projectCheckpoints(project)).policy;
    expect(policy.commands).toBe("ask-always");
    expect(policy.judgeAction).toBe("ask");

    // A run override still beats the repository.
    const overridden = await modelForSession(
      { db, box: createSecretBox(randomBytes(32)), environment: app.environment },
      owner.session.id,
      { modelName: "run-model" },
    );
    expect(overridden.id).toBe("openai-compatible:run-model");
  });

  it("skips a malformed file with its problem named, and runs keep the other layers", async () => {
    const { owner, project, caller } = await world({
      ".arbor/config.yaml": "model:\n  name: repo-model\n  baseUrl: https://elsewhere.example/v1\n",
    });
    const layers = await caller.layers({ projectId: project.id });
    expect(layers.repoConfig.status).toBe("invalid");
    expect(layers.repoConfig.problem).toMatch(
      /\.arbor\/config\.yaml on the default branch: model: .*baseUrl/,
    );
    expect(layers.model.every((row) => row.source !== "repo")).toBe(true);
    expect(layers.checkpoints.every((row) => row.source === "project")).toBe(true);
    const view = await caller.project({ projectId: project.id });
    expect(view.repoConfig.problem).toBe(layers.repoConfig.problem);

    const runModel = await modelForSession(
      { db, box: createSecretBox(randomBytes(32)), environment: app.environment },
      owner.session.id,
      {},
    );
    expect(runModel.id).toBe("openai-compatible:gpt-4o-mini");
  });

  it("names a file that is not YAML", async () => {
    const { project, caller } = await world({ ".arbor/config.yaml": "model: [unclosed\n" });
    const layers = await caller.layers({ projectId: project.id });
    expect(layers.repoConfig.problem).toMatch(
      /^\.arbor\/config\.yaml on the default branch is not valid YAML: /,
    );
  });

  it("says the file is absent when main has none, and keeps the project's policy", async () => {
    const { project, caller } = await world({});
    await db.project.update({
      where: { id: project.id },
      data: { checkpointPolicy: JSON.stringify({ commands: "never-ask" }) },
    });
    const layers = await caller.layers({ projectId: project.id });
    expect(layers.repoConfig).toEqual({ status: "absent", problem: null });
    expect(layers.checkpoints.find((row) => row.field === "commands")).toMatchObject({
      value: "never-ask",
      source: "project",
    });
  });

  it("shows limits, budget, sandbox and network with their sources, and what the file loosens as ignored", async () => {
    const { project, caller } = await world({
      ".arbor/config.yaml": [
        "limits: { maxIterations: 4, maxDepth: 11 }",
        "budgets: { maxCostUsd: 3, maxTokens: 9000 }",
        "sandbox: { memoryMb: 256, cpus: 2 }",
        "network: { agent: { mode: off, getHeadOnly: true } }",
        "checkpoints: { preApproved: [write] }",
        "",
      ].join("\n"),
    });
    await db.project.update({ where: { id: project.id }, data: { sandboxResources: '{"cpus":1}' } });
    const layers = await caller.layers({ projectId: project.id });
    const rows = Object.fromEntries(layers.run.map((row) => [row.key, row]));
    expect(rows["limits.maxIterations"]).toMatchObject({ value: "4", source: "repo" });
    expect(rows["limits.maxDepth"]).toMatchObject({ value: "10", source: "server" });
    expect(rows["budgets.maxCostUsd"]).toMatchObject({ value: "2", source: "server" });
    expect(rows["budgets.maxTokens"]).toMatchObject({ value: "9000", source: "repo" });
    expect(rows["sandbox.memoryMb"]).toMatchObject({ value: "256", source: "repo" });
    expect(rows["sandbox.cpus"]).toMatchObject({ value: "1", source: "project" });
    expect(rows["network.agent.mode"]).toMatchObject({ value: "off", source: "server" });
    expect(rows["network.agent.getHeadOnly"]).toMatchObject({ value: "true", source: "repo" });
    expect(layers.ignored.map((row) => `${row.key}: ${row.reason}`)).toEqual([
      "checkpoints.preApproved: the project does not allow these: a repository may only remove entries",
      "limits.maxDepth: higher than the server's 10: a repository may only lower it",
      "budgets.maxCostUsd: higher than the server's 2: a repository may only lower it",
      "sandbox.cpus: higher than the project's 1: a repository may only lower it",
    ]);
  });

  it("is not shown to someone outside the team", async () => {
    const { project } = await world({ ".arbor/config.yaml": MAIN_CONFIG });
    const outsider = await seedSession(db, "outsider");
    const caller = settingsRouter.createCaller({
      db,
      user: { id: outsider.user.id, name: outsider.user.name, email: outsider.user.email },
    });
    await expect(caller.layers({ projectId: project.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
