import "server-only";
import Docker from "dockerode";
import type { Logger } from "pino";
import type { PrismaClient } from "@/server/generated/prisma/client";
import {
  type CurrentProjectImages,
  EngineImageUpkeep,
  type EngineUpkeepStatus,
} from "@/server/sandbox/hosts/host-image-upkeep";
import { MultiHostSandboxProvider } from "@/server/sandbox/hosts/multi-host-provider";
import { BUILD_TIMEOUT_MS } from "@/server/sandbox/project-image/build-image";
import type { SandboxProvider } from "@/server/sandbox/types";

/** A project image younger than this is never removed: its build may not be recorded on the project yet. */
export const MIN_PROJECT_IMAGE_AGE_MS = 10 * 60_000;

/**
 * Each named project's current image, from the Project rows. A project not found is left out, and so
 * is one whose image is being built — in this process (`isBuilding`) or, per the database, by any
 * instance within the build time limit (an older "building" row is a crashed server's) — so its images
 * are left alone this round.
 */
export function currentProjectImagesFrom(
  db: Pick<PrismaClient, "project" | "projectImageBuild">,
  isBuilding: (projectId: string) => boolean = () => false,
  nowMs: () => number = Date.now,
): CurrentProjectImages {
  return async (projectIds) => {
    const [rows, builds] = await Promise.all([
      db.project.findMany({
        where: { id: { in: projectIds } },
        select: { id: true, sandboxImage: true },
      }),
      db.projectImageBuild.findMany({
        where: {
          projectId: { in: projectIds },
          status: "building",
          startedAt: { gt: new Date(nowMs() - BUILD_TIMEOUT_MS) },
        },
        select: { projectId: true },
      }),
    ]);
    const building = new Set(builds.map((build) => build.projectId));
    return new Map(
      rows
        .filter((row) => !building.has(row.id) && !isBuilding(row.id))
        .map((row) => [row.id, row.sandboxImage]),
    );
  };
}

export interface ImageUpkeepHandle {
  stop(): void;
  /** The single local engine's upkeep status; null with ARBOR_DOCKER_HOSTS (each host says its own). */
  localStatus(): EngineUpkeepStatus | null;
}

/**
 * Every `intervalMs` (and once a minute after start), Arbor's old images are removed when unused: on
 * each healthy listed Docker host (MultiHostSandboxProvider.upkeepImages), or, with no host list, on the
 * local engine — the same upkeep (EngineImageUpkeep), given that engine. A round still going is not
 * doubled.
 */
export function startImageUpkeep(deps: {
  db: Pick<PrismaClient, "project" | "projectImageBuild">;
  sandboxes: SandboxProvider;
  /** The server's sandbox image (ARBOR_SANDBOX_IMAGE): never removed, even named by an unnamed build's ID. */
  sandboxImage: string;
  isBuilding: (projectId: string) => boolean;
  intervalMs: number;
  log: Logger;
}): ImageUpkeepHandle {
  const current = currentProjectImagesFrom(deps.db, deps.isBuilding);
  const { sandboxes } = deps;
  const local =
    sandboxes instanceof MultiHostSandboxProvider
      ? null
      : // The client the local provider makes too (DOCKER_HOST or the local socket).
        new EngineImageUpkeep({
          hostId: "local",
          docker: new Docker(),
          source: null,
          keepImages: [deps.sandboxImage],
          log: deps.log,
        });
  const upkeep = () =>
    local
      ? local.run(current, MIN_PROJECT_IMAGE_AGE_MS)
      : (sandboxes as MultiHostSandboxProvider).upkeepImages(current, MIN_PROJECT_IMAGE_AGE_MS);
  let running = false;
  const round = () => {
    if (running) return;
    running = true;
    upkeep()
      .catch((error: unknown) => deps.log.warn({ err: error }, "image upkeep round failed"))
      .finally(() => {
        running = false;
      });
  };
  const first = setTimeout(round, Math.min(60_000, deps.intervalMs));
  const timer = setInterval(round, deps.intervalMs);
  first.unref();
  timer.unref();
  return {
    stop: () => {
      clearTimeout(first);
      clearInterval(timer);
    },
    localStatus: () => local?.status ?? null,
  };
}
