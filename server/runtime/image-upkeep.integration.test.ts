import { execFileSync, spawnSync } from "node:child_process";
import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { DockerSandboxProvider } from "@/server/sandbox/docker-provider";
import { EngineImageUpkeep } from "@/server/sandbox/hosts/host-image-upkeep";
import { projectImageTag } from "@/server/sandbox/project-image/project-images";
import { createTestDb, seedSession } from "@/testing/db/test-db";
import { PREFIX, silent } from "@/testing/sandbox/docker";
import { ensureSmallSandboxImage, SMALL_SANDBOX_IMAGE } from "@/testing/sandbox/small-image";
import { currentProjectImagesFrom, startImageUpkeep } from "./image-upkeep";

/**
 * Issue #19, image upkeep with the embedded default (no ARBOR_DOCKER_HOSTS: the local engine alone),
 * with real parts: this machine's engine, SQLite. Images labelled like Arbor's builds are made with
 * `docker commit` of one created (never started) container of the small test image, so each costs no
 * layer: a project's old and current hash, an old hash a stopped container was made from, an old hash
 * of a project whose image is building, a sandbox image a rebuild left without a name, and one a stopped
 * container uses. One pass removes exactly the unused old ones.
 */
const docker = (...args: string[]) =>
  execFileSync("docker", args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();

let db: PrismaClient;
let cleanupDb: () => Promise<void>;
const base = `${PREFIX}-upkeep-base`;
const users: string[] = [];
const made: string[] = [];

/** A new image of the base container with these labels (and this name, or none); returns its ID. */
function commit(labels: Record<string, string>, tag?: string): string {
  const changes = Object.entries(labels).flatMap(([key, value]) => ["--change", `LABEL ${key}=${value}`]);
  const id = docker("commit", ...changes, base, ...(tag ? [tag] : []));
  made.push(id);
  return id;
}

/** A stopped container made from the image (what a stopped sandbox or a warm one looks like to the engine). */
function stoppedContainerOf(image: string): string {
  const name = `${PREFIX}-upkeep-user-${users.length}`;
  users.push(name);
  return docker("create", "--name", name, image);
}

/**
 * The local engine, except that the upkeep's listing of all containers misses one: as if it were made
 * from an image between the listing and the removal. Everything else is the engine's own answer.
 */
function engineRacedBy(containerId: () => string | null): Docker {
  const engine = new Docker();
  const raced = Object.create(engine) as Docker;
  raced.listContainers = (async (options?: Docker.ContainerListOptions) => {
    const all = await engine.listContainers(options);
    return options?.filters ? all : all.filter((container) => container.Id !== containerId());
  }) as Docker["listContainers"];
  return raced;
}

describe.skipIf(process.getuid?.() !== 0)("image upkeep on the single local engine", () => {
  beforeAll(async () => {
    ({ db, cleanup: cleanupDb } = await createTestDb());
    docker("create", "--name", base, ensureSmallSandboxImage());
  }, 120_000);

  afterAll(async () => {
    for (const name of [...users, base]) docker("rm", "-f", name);
    for (const id of made.reverse())
      try {
        docker("rmi", "-f", id);
      } catch {
        // The upkeep removed it.
      }
    await cleanupDb?.();
  }, 60_000);

  it("removes exactly the old project and sandbox images nothing uses, in one pass", async () => {
    const { project } = await seedSession(db, "kept");
    const { project: building } = await seedSession(db, "building");
    const label = (projectId: string) => ({ "arbor.project": projectId });
    const old = commit(label(project.id), projectImageTag(project.id, "old"));
    const current = commit(label(project.id), projectImageTag(project.id, "new"));
    const oldInUse = commit(label(project.id), projectImageTag(project.id, "older"));
    stoppedContainerOf(oldInUse);
    const beingBuilt = commit(label(building.id), projectImageTag(building.id, "old"));
    const sandboxUnnamed = commit({ "arbor.sandbox.hash": `${PREFIX}-before` });
    const sandboxUnnamedInUse = commit({ "arbor.sandbox.hash": `${PREFIX}-used` });
    stoppedContainerOf(sandboxUnnamedInUse);
    // The sandbox image the server runs, named by the ID of a build that has no name.
    const sandboxById = commit({ "arbor.sandbox.hash": `${PREFIX}-by-id` });
    const raced = commit(label(project.id), projectImageTag(project.id, "raced"));
    let racer: string | null = stoppedContainerOf(raced);
    // The projects run their `new` build (and the server's image); the second one's next image builds.
    await db.project.update({
      where: { id: project.id },
      data: { sandboxImage: projectImageTag(project.id, "new") },
    });
    await db.projectImageBuild.create({
      data: {
        projectId: building.id,
        hash: "next",
        image: "-",
        dockerfile: "-",
        commit: "-",
        status: "building",
      },
    });

    const upkeep = new EngineImageUpkeep({
      hostId: "local",
      docker: engineRacedBy(() => racer),
      source: null,
      keepImages: [sandboxById],
      log: silent,
    });
    expect(upkeep.status).toEqual({ imagesRemoved: 0, lastUpkeepAt: null });
    const removed = await upkeep.run(currentProjectImagesFrom(db), 0);
    const mine = new Set(made);
    // Only ours are asserted on: the engine is shared, and other builds left without a name go too.
    expect(
      removed
        .filter((image) => mine.has(image.id))
        .map(({ id, reason, host }) => [id, reason, host])
        .sort((a, b) => String(a[1]).localeCompare(String(b[1]))),
    ).toEqual([
      [old, "old-project-image", "local"],
      [sandboxUnnamed, "superseded-sandbox-image", "local"],
    ]);
    const present = (id: string) =>
      spawnSync("docker", ["image", "inspect", id], { stdio: "ignore" }).status === 0;
    expect([old, sandboxUnnamed].map(present)).toEqual([false, false]);
    // Kept: the current hash, what containers use, the building project's, the server's sandbox image,
    // and the one the engine refused (a container was made from it after the listing).
    expect([current, oldInUse, beingBuilt, sandboxUnnamedInUse, sandboxById, raced].map(present)).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(upkeep.status).toEqual({ imagesRemoved: removed.length, lastUpkeepAt: expect.any(String) });

    // Its build over in the database but still running in this process: still left alone. The refused
    // image goes on the next pass, its container gone.
    docker("rm", racer as string);
    racer = null;
    await db.projectImageBuild.updateMany({ where: { projectId: building.id }, data: { status: "failed" } });
    const ours = async (isBuilding: (id: string) => boolean) =>
      (await upkeep.run(currentProjectImagesFrom(db, isBuilding), 0))
        .filter((image) => mine.has(image.id))
        .map((image) => image.id);
    expect(await ours((id) => id === building.id)).toEqual([raced]);
    // Once no build runs, its old image goes too (the project runs the server's image).
    expect(await ours(() => false)).toEqual([beingBuilt]);
  }, 30_000);

  it("runs on the local engine when no Docker host list is configured", async () => {
    const handle = startImageUpkeep({
      db,
      sandboxes: new DockerSandboxProvider({ logger: silent }),
      sandboxImage: SMALL_SANDBOX_IMAGE,
      isBuilding: () => false,
      intervalMs: 1_000,
      log: silent,
    });
    try {
      await expect.poll(() => handle.localStatus()?.lastUpkeepAt ?? null, { timeout: 10_000 }).not.toBeNull();
    } finally {
      handle.stop();
    }
  }, 15_000);
});
