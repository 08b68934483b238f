import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Docker from "dockerode";
import { describe, expect, it, vi } from "vitest";
import { projectRouter } from "@/server/api/routers/project";
import { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import { env } from "@/server/env";
import { logger } from "@/server/logger";
import { createEmptyRepository, repoPathFor } from "@/server/projects/git-repository";
import { cacheVolumeName } from "@/server/sandbox/dep-cache";
import { BASE_BUILD_ARG, buildImage } from "@/server/sandbox/project-image/build-image";
import { LABEL_PROJECT, ProjectImages } from "@/server/sandbox/project-image/project-images";
import { orchestratorWorld } from "@/testing/harness/orchestrator-world";
import { deletedReposDir } from "./project-deletion";

/**
 * Deleting a project with every real part: SQLite, the Docker engine (a session's sandbox, the
 * project's cache volume and a built image), a running run stopped through the orchestrator, and the
 * repository copy under Arbor's data directory.
 */
const world = orchestratorWorld({ repoName: "Deleted" });
const app = vi.hoisted(() => ({ current: {} as Record<string, unknown> }));
vi.mock("@/server/app-context", () => ({ appContext: () => app.current }));
const docker = new Docker();

async function ownedProject() {
  const session = await world.db.session.findUniqueOrThrow({
    where: { id: world.sessionId },
    include: { project: true },
  });
  const repoPath = repoPathFor(env.dataDir, session.projectId);
  await createEmptyRepository(repoPath, "Deleted");
  const project = await world.db.project.update({ where: { id: session.projectId }, data: { repoPath } });
  const owner = await world.db.user.findUniqueOrThrow({ where: { id: project.createdById } });
  const orchestrator = world.orchestrator({
    commandTimeoutMs: 60_000,
    workspaceOf: async () => ({ repoPath, branch: `arbor/session-${world.sessionId}` }),
    checkpointsOf: async () => CheckpointPolicy.parse({ commands: "never-ask" }),
  });
  const projectImages = new ProjectImages({
    db: world.db,
    docker,
    baseImage: world.sandboxes.image,
    log: logger,
  });
  app.current = { sandboxes: world.sandboxes, orchestrator, projectImages };
  const as = (user: { id: string; name: string; email: string }) =>
    projectRouter.createCaller({ db: world.db, user });
  return { project, owner, repoPath, orchestrator, as };
}

const exists = (check: Promise<unknown>) =>
  check.then(
    () => true,
    () => false,
  );

describe("project.delete", () => {
  it("refuses a member, hides another team's project, and touches nothing for a wrong name", async () => {
    const { project, owner, repoPath, as } = await ownedProject();
    const member = await world.db.user.create({ data: { email: "m@example.com", name: "Member" } });
    await world.db.membership.create({ data: { userId: member.id, teamId: project.teamId, role: "member" } });
    const outsider = await world.db.user.create({ data: { email: "o@example.com", name: "Outsider" } });
    const stranger = await world.db.team.create({ data: { name: "Other" } });
    await world.db.membership.create({ data: { userId: outsider.id, teamId: stranger.id, role: "owner" } });
    const projectId = project.id;
    try {
      await expect(as(member).delete({ projectId, confirmName: project.name })).rejects.toMatchObject({
        code: "FORBIDDEN",
        message: expect.stringContaining("Members cannot delete projects"),
      });
      await expect(as(outsider).delete({ projectId, confirmName: project.name })).rejects.toMatchObject({
        code: "NOT_FOUND",
      });
      await expect(as(owner).delete({ projectId, confirmName: "Project" })).rejects.toMatchObject({
        code: "BAD_REQUEST",
      });
      // An owner's API token for the whole team: deleting is for a person in the browser.
      const token = { id: "t1", name: "ci", teamId: project.teamId, projectIds: [], role: "owner" as const };
      const byToken = projectRouter.createCaller({ db: world.db, user: owner, token });
      await expect(byToken.delete({ projectId, confirmName: project.name })).rejects.toMatchObject({
        code: "FORBIDDEN",
        message: expect.stringContaining("API tokens cannot delete projects"),
      });
      expect(await world.db.project.count({ where: { id: projectId } })).toBe(1);
      expect(existsSync(repoPath)).toBe(true);

      // A repository that is a symlink out of the data directory is not Arbor's copy: left in place.
      const outside = mkdtempSync(path.join(tmpdir(), "arbor-user-repo-"));
      rmSync(repoPath, { recursive: true, force: true });
      symlinkSync(outside, repoPath);
      const report = await as(owner).delete({ projectId, confirmName: project.name });
      expect(report).toMatchObject({ sessions: 1, runsStopped: 0, repository: "kept" });
      expect(existsSync(outside)).toBe(true);
      expect(await world.db.project.count({ where: { id: projectId } })).toBe(0);
      rmSync(repoPath);
      rmSync(outside, { recursive: true });
    } finally {
      rmSync(repoPath, { recursive: true, force: true });
    }
  });

  it("stops the running run, and a second delete after a failure part-way removes everything", async () => {
    const { project, owner, repoPath, orchestrator, as } = await ownedProject();
    const projectId = project.id;
    const sandbox = await world.sandboxes.create({
      sessionId: world.sessionId,
      repoPath,
      cacheProjectId: projectId,
    });
    const volume = cacheVolumeName("default", projectId);
    const dir = mkdtempSync(path.join(tmpdir(), "arbor-delete-image-"));
    writeFileSync(path.join(dir, "Dockerfile"), `ARG ${BASE_BUILD_ARG}\nFROM \${${BASE_BUILD_ARG}}\n`);
    const tag = `arbor-delete-test-${projectId.slice(0, 8)}:1`;
    await buildImage({
      docker,
      context: execFileSync("tar", ["-C", dir, "-c", "."]),
      dockerfile: "Dockerfile",
      tag,
      baseImage: world.sandboxes.image,
      labels: { [LABEL_PROJECT]: projectId },
      onLog: () => undefined,
      networkMode: "none",
    });
    rmSync(dir, { recursive: true });
    await world.db.teamWebhook.create({
      data: {
        teamId: project.teamId,
        url: "https://hooks.example.com/x",
        secretSealed: "",
        createdById: owner.id,
      },
    });
    const { runId } = await orchestrator.startRun({
      sessionId: world.sessionId,
      task: "run `sleep 30`",
      mode: "agent",
      actor: world.actor,
    });
    for (let i = 0; i < 400 && !(await world.db.cycle.findFirst({ where: { runId } })); i++)
      await new Promise((resolve) => setTimeout(resolve, 50));

    // Part-way failure: the place repository copies are set aside is blocked by a file.
    const trash = deletedReposDir(env.dataDir);
    rmSync(trash, { recursive: true, force: true });
    mkdirSync(path.dirname(trash), { recursive: true });
    writeFileSync(trash, "in the way");
    try {
      await expect(as(owner).delete({ projectId, confirmName: project.name })).rejects.toMatchObject({
        code: "CONFLICT",
        message: expect.stringContaining("delete it again"),
      });
    } finally {
      rmSync(trash);
    }
    const stopped = await world.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect([stopped.status, stopped.reason]).toEqual([
      "STOPPED",
      `stopped by ${owner.name} (project deleted)`,
    ]);
    expect(await exists(docker.getContainer(sandbox.id).inspect())).toBe(false);
    expect(await world.db.project.count({ where: { id: projectId } })).toBe(1);
    expect(existsSync(repoPath)).toBe(true);

    const report = await as(owner).delete({ projectId, confirmName: project.name });
    expect(report).toEqual({ sessions: 1, runsStopped: 0, repository: "removed", leftovers: [] });
    expect(await exists(docker.getVolume(volume).inspect())).toBe(false);
    expect(await exists(docker.getImage(tag).inspect())).toBe(false);
    expect(existsSync(repoPath)).toBe(false);
    expect(readdirSync(trash).filter((name) => name.startsWith(projectId))).toEqual([]);
    expect(await world.db.project.count({ where: { id: projectId } })).toBe(0);
    expect(await world.db.session.count({ where: { projectId } })).toBe(0);
    expect(await world.db.run.count({ where: { id: runId } })).toBe(0);
    const delivery = await world.db.webhookDelivery.findFirstOrThrow({ where: { event: "project.deleted" } });
    expect(JSON.parse(delivery.payload)).toMatchObject({ projectId, name: project.name, by: owner.name });
    await orchestrator.idle();
  });
});
