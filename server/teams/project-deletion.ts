import "server-only";
import { randomUUID } from "node:crypto";
import { mkdir, readdir, realpath, rename, rm } from "node:fs/promises";
import path from "node:path";
import type { Logger } from "pino";
import { errorMessage, UserFacingError } from "@/server/domain/errors";
import type { PrismaClient } from "@/server/generated/prisma/client";
import type { SandboxProvider } from "@/server/sandbox/types";

/**
 * Deleting a project: its running runs are stopped through the orchestrator's own stop, its sessions'
 * sandboxes removed, Arbor's copy of its repository set aside, its rows deleted (with the team's
 * `project.deleted` webhook), then its cache volume, its images on every host and the set-aside copy
 * removed. The order keeps a failure part-way harmless: until the rows go, all that has gone is what
 * Arbor makes again on demand (stopped runs stay recorded, sandboxes are recreated), so a second delete
 * finishes the job; after the rows go, what fails to be removed is logged and left to the sweeps at
 * server start (containers of gone sessions, cache volumes of gone projects, `repos/.deleted/`).
 */

export interface ProjectDeletionDeps {
  db: PrismaClient;
  sandboxes: Pick<SandboxProvider, "get" | "removeProjectArtifacts">;
  /** The orchestrator's normal stop: records the run STOPPED with who stopped it. */
  stopRun(sessionId: string, runId: string, actor: { userId: string; name: string }): Promise<void>;
  /** Arbor's data directory: only a repository under its `repos/` is Arbor's own copy to remove. */
  dataDir: string;
  log: Logger;
}

export interface DeletedProject {
  id: string;
  name: string;
  teamId: string;
  repoPath: string;
}

export interface ProjectDeletionReport {
  sessions: number;
  runsStopped: number;
  /** "removed"; "absent" (nothing there); "kept" when the path is not Arbor's own copy. */
  repository: "removed" | "absent" | "kept";
  /** What could not be removed now (left to the sweeps at server start); names only, no secrets. */
  leftovers: string[];
}

/** Where set-aside repository copies wait to be removed (swept at server start). */
export function deletedReposDir(dataDir: string): string {
  return path.join(dataDir, "repos", ".deleted");
}

export async function deleteProject(
  deps: ProjectDeletionDeps,
  project: DeletedProject,
  actor: { userId: string; name: string },
): Promise<ProjectDeletionReport> {
  const { db, log } = deps;
  const sessions = await db.session.findMany({ where: { projectId: project.id }, select: { id: true } });
  const sessionIds = sessions.map((session) => session.id);
  const running = await db.run.findMany({
    where: { sessionId: { in: sessionIds }, status: "RUNNING" },
    select: { id: true, sessionId: true },
  });
  // Recorded as each run's stop: "stopped by Ada (project deleted)".
  const stopper = { userId: actor.userId, name: `${actor.name} (project deleted)` };
  for (const run of running) await deps.stopRun(run.sessionId, run.id, stopper);

  const leftovers: string[] = [];
  for (const sessionId of sessionIds) {
    try {
      await (await deps.sandboxes.get(sessionId))?.dispose();
    } catch (error) {
      leftovers.push(`sandbox of session ${sessionId}`);
      log.warn({ sessionId, err: errorMessage(error) }, "project delete: a sandbox was not removed");
    }
  }

  // Someone may have started a run meanwhile: stop only what was asked, and let the next delete see it.
  const startedMeanwhile = await db.run.count({
    where: { sessionId: { in: sessionIds }, status: "RUNNING" },
  });
  if (startedMeanwhile > 0)
    throw new UserFacingError(
      `A run of ${project.name} started while it was being deleted, so it was not deleted. Delete it again to stop that run too.`,
      "CONFLICT",
    );
  const repository = await setAsideRepository(deps, project).catch((error: unknown) => {
    log.error({ projectId: project.id, err: errorMessage(error) }, "project delete: repository not moved");
    throw new UserFacingError(
      `Project ${project.name} was not deleted: Arbor's copy of its repository could not be moved aside. Its runs are stopped and its sandboxes removed (they are made again when needed); delete it again to finish.`,
      "CONFLICT",
    );
  });
  try {
    await db.$transaction([
      ...(await projectDeletedWebhooks(db, project, actor.name)),
      db.project.deleteMany({ where: { id: project.id } }),
    ]);
  } catch (error) {
    log.error({ projectId: project.id, err: errorMessage(error) }, "project delete: rows not deleted");
    throw new UserFacingError(
      `Project ${project.name} was only partly deleted: its runs are stopped, its sandboxes removed and Arbor's copy of its repository set aside, but its records are still there. Delete it again to finish.`,
      "CONFLICT",
    );
  }

  try {
    await deps.sandboxes.removeProjectArtifacts?.(project.id);
  } catch (error) {
    leftovers.push("cache volume and images");
    log.warn({ projectId: project.id, err: errorMessage(error) }, "project delete: Docker leftovers");
  }
  // This delete's copy, and one an earlier delete of the project set aside before it failed.
  await removeSetAside(deps.dataDir, project.id).catch((error: unknown) => {
    leftovers.push("repository copy");
    log.warn({ projectId: project.id, err: errorMessage(error) }, "project delete: repository copy left");
  });
  const report = {
    sessions: sessionIds.length,
    runsStopped: running.length,
    repository: repository.outcome,
    leftovers,
  };
  log.info({ projectId: project.id, teamId: project.teamId, by: actor.userId, ...report }, "project deleted");
  return report;
}

/**
 * Moves Arbor's own copy of the repository out of the way in one rename (so it is either whole where
 * it was, or set aside): only a directory directly under `<dataDir>/repos/` after every symlink is
 * resolved, and used by no other project. Anything else — a path outside the data directory, a
 * symlink leading out of it — is never touched.
 */
async function setAsideRepository(
  deps: ProjectDeletionDeps,
  project: DeletedProject,
): Promise<{ outcome: ProjectDeletionReport["repository"] }> {
  const resolved = await realpath(project.repoPath).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return null;
    throw error;
  });
  if (resolved === null) return { outcome: "absent" };
  const repos = await realpath(path.join(deps.dataDir, "repos")).catch(() => null);
  const shared = await deps.db.project.count({
    where: { repoPath: project.repoPath, id: { not: project.id } },
  });
  if (repos === null || path.dirname(resolved) !== repos || shared > 0) {
    deps.log.warn(
      { projectId: project.id },
      "project delete: repository is not Arbor's own copy; left in place",
    );
    return { outcome: "kept" };
  }
  const trash = deletedReposDir(deps.dataDir);
  await mkdir(trash, { recursive: true, mode: 0o700 });
  await rename(resolved, path.join(trash, `${project.id}-${randomUUID()}`));
  return { outcome: "removed" };
}

async function removeSetAside(dataDir: string, projectId: string): Promise<void> {
  const trash = deletedReposDir(dataDir);
  const entries = await readdir(trash).catch(() => [] as string[]);
  for (const entry of entries.filter((name) => name.startsWith(`${projectId}-`)))
    await rm(path.join(trash, entry), { recursive: true, force: true });
}

/** The team's `project.deleted` deliveries, written in the transaction that deletes the rows. */
async function projectDeletedWebhooks(db: PrismaClient, project: DeletedProject, by: string) {
  const hooks = await db.teamWebhook.findMany({ where: { teamId: project.teamId }, select: { id: true } });
  const payload = JSON.stringify({
    event: "project.deleted",
    projectId: project.id,
    name: project.name,
    by,
    at: new Date().toISOString(),
    path: `/projects?team=${encodeURIComponent(project.teamId)}`,
  });
  return hooks.map((hook) =>
    db.webhookDelivery.create({ data: { webhookId: hook.id, event: "project.deleted", payload } }),
  );
}

/** Removes repository copies a delete set aside but could not remove; run at server start. */
export async function sweepDeletedRepositories(dataDir: string): Promise<void> {
  await rm(deletedReposDir(dataDir), { recursive: true, force: true });
}
