import { randomBytes } from "node:crypto";
import Docker from "dockerode";
import { afterAll, describe, expect, it, vi } from "vitest";
import { environmentRouter } from "@/server/api/routers/environment";
import { settingsRouter } from "@/server/api/routers/settings";
import type { EventBody } from "@/server/domain/events/schema";
import { removeCacheVolume } from "@/server/sandbox/dep-cache";
import { createSecretBox, type SecretBox } from "@/server/settings/secret-box";
import { sessionEnvironment } from "@/server/setup/environment";
import { prepareEnvironment } from "@/server/setup/prepare-environment";
import { orchestratorWorld } from "@/testing/harness/orchestrator-world";
import { commitRepoConfig } from "@/testing/harness/repo-config-commit";

// The routers reach the secret box, the environment layer and the run defaults through the app context.
const app = await vi.hoisted(async () => ({
  box: null as unknown,
  environment: {},
  runDefaults: (await import("@/testing/harness/run-defaults")).testRunDefaults(),
}));
vi.mock("@/server/app-context", () => ({ appContext: () => app }));

/**
 * The setup command named by `.arbor/config.yaml` on the default branch (issue #20.3), with a real
 * bare repository, SQLite, the real Docker engine and the offline model: it is proposed, never run
 * before a person approves that exact text; approved, a new session's setup runs it; a change on the
 * default branch needs a new approval. The card's own command beats the file's.
 */
const world = orchestratorWorld({ repoName: "RepoSetup" });
let cacheProjectId = "";
afterAll(async () => {
  if (cacheProjectId) await removeCacheVolume(new Docker(), "default", cacheProjectId);
});

const FIRST = "echo repo-setup-ran > /workspace/.repo-setup-done";
const CHANGED = "echo changed-on-main > /workspace/.repo-setup-done";

const mergeConfig = (text: string) => commitRepoConfig(world.repoPath, text);

/** The world's session's project on the world's repository, and its owner's callers. */
async function projectAndCallers() {
  const { projectId, createdById } = await world.db.session.findUniqueOrThrow({
    where: { id: world.sessionId },
  });
  const project = await world.db.project.update({
    where: { id: projectId },
    data: { repoPath: world.repoPath },
  });
  const owner = await world.db.user.findUniqueOrThrow({ where: { id: createdById } });
  const ctx = { db: world.db, user: { id: owner.id, name: owner.name, email: owner.email } };
  return {
    project,
    environment: environmentRouter.createCaller(ctx),
    settings: settingsRouter.createCaller(ctx),
  };
}

describe("the setup command in .arbor/config.yaml", () => {
  it("is proposed unapproved, runs in a new session once approved, and needs a new approval when main changes it", async () => {
    app.box = createSecretBox(randomBytes(32));
    const box = app.box as SecretBox;
    await mergeConfig(`setup:\n  command: ${FIRST}\n`);
    const { project, environment, settings } = await projectAndCallers();
    const projectId = project.id;
    cacheProjectId = projectId;

    // Proposed by the file, not approved: a session made now skips it and says where it came from.
    let view = await environment.get({ projectId });
    expect(view.setup).toMatchObject({
      command: FIRST,
      source: "repo",
      repoCommand: FIRST,
      defaultBranch: "main",
      approved: false,
      otherApproved: false,
    });
    const layers = await settings.layers({ projectId });
    expect(layers.setup).toMatchObject({
      command: FIRST,
      source: "repo",
      sourceLabel: "from .arbor/config.yaml on main",
      approved: false,
    });
    const unapproved = await sessionEnvironment(world.db, box, project);
    expect(unapproved.setup).toMatchObject({ command: FIRST, binding: null, source: "repo" });
    const skipped: EventBody[] = [];
    await prepareEnvironment({
      runId: "run-unapproved",
      sessionId: "not-made",
      fresh: true,
      environment: unapproved,
      sandboxes: {},
      append: async (events) => {
        skipped.push(...events);
      },
      runSetup: () => Promise.reject(new Error("an unapproved setup command must not run")),
    });
    expect(skipped).toMatchObject([{ type: "setup-ran", status: "skipped", command: FIRST }]);
    expect(skipped[0]?.type === "setup-ran" && skipped[0].reason).toContain(
      "(from .arbor/config.yaml on main) waits for a person's approval",
    );

    // A person approves the text they saw; the session's first run prepares its workspace with it.
    await environment.approveSetup({ projectId, hash: view.setup.hash ?? "" });
    expect((await environment.get({ projectId })).setup.approved).toBe(true);
    const orch = world.orchestrator({
      environmentOf: () => sessionEnvironment(world.db, box, project),
    });
    const { runId } = await orch.startRun({
      sessionId: world.sessionId,
      task: "run `cat .repo-setup-done`",
      mode: "agent",
      actor: world.actor,
    });
    await world.approveUntilEnded(orch, runId);
    expect((await world.view()).environment?.setup).toMatchObject({
      command: FIRST,
      status: "ok",
      exitCode: 0,
    });
    const sandbox = await world.sandboxes.get(world.sessionId);
    expect((await sandbox?.exec("cat /workspace/.repo-setup-done"))?.stdout).toBe("repo-setup-ran\n");

    // The file changes on the default branch: the new text is proposed, unapproved, and not bound.
    await mergeConfig(`setup:\n  command: ${CHANGED}\n`);
    view = await environment.get({ projectId });
    expect(view.setup).toMatchObject({
      command: CHANGED,
      source: "repo",
      approved: false,
      otherApproved: true,
    });
    expect((await sessionEnvironment(world.db, box, project)).setup).toMatchObject({
      command: CHANGED,
      binding: null,
    });
    expect((await settings.layers({ projectId })).setup).toMatchObject({ command: CHANGED, approved: false });

    // The card's own command beats the file's; cleared, the file's counts again.
    await environment.saveSetupCommand({ projectId, command: "make deps" });
    expect((await environment.get({ projectId })).setup).toMatchObject({
      command: "make deps",
      source: "project",
      repoCommand: CHANGED,
    });
    await environment.saveSetupCommand({ projectId, command: null });
    expect((await environment.get({ projectId })).setup).toMatchObject({ command: CHANGED, source: "repo" });

    // An invalid value skips the file with the key named; nothing else names a command here.
    await mergeConfig(`setup:\n  command: "   "\n`);
    view = await environment.get({ projectId });
    expect(view.setup).toMatchObject({ command: null, source: null, repoCommand: null });
    expect(view.setup.repoProblem).toMatch(/^\.arbor\/config\.yaml on the default branch: setup\.command: /);
  }, 60_000);
});
