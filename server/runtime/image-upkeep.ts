import "server-only";
import type { Logger } from "pino";
import type { PrismaClient } from "@/server/generated/prisma/client";
import type { CurrentProjectImages } from "@/server/sandbox/hosts/host-image-upkeep";
import type { MultiHostSandboxProvider } from "@/server/sandbox/hosts/multi-host-provider";

/** A project image younger than this is never removed: its build may not be recorded on the project yet. */
export const MIN_PROJECT_IMAGE_AGE_MS = 10 * 60_000;

/** Each named project's current image, from the Project rows (a project not found is left out). */
export function currentProjectImagesFrom(db: Pick<PrismaClient, "project">): CurrentProjectImages {
  return async (projectIds) => {
    const rows = await db.project.findMany({
      where: { id: { in: projectIds } },
      select: { id: true, sandboxImage: true },
    });
    return new Map(rows.map((row) => [row.id, row.sandboxImage]));
  };
}

/**
 * Every `intervalMs` (and once a minute after start), each healthy Docker host's old images of Arbor's
 * are removed when unused (MultiHostSandboxProvider.upkeepImages). A round still going is not doubled.
 */
export function startImageUpkeep(deps: {
  db: Pick<PrismaClient, "project">;
  sandboxes: MultiHostSandboxProvider;
  intervalMs: number;
  log: Logger;
}): () => void {
  const current = currentProjectImagesFrom(deps.db);
  let running = false;
  const round = () => {
    if (running) return;
    running = true;
    deps.sandboxes
      .upkeepImages(current, MIN_PROJECT_IMAGE_AGE_MS)
      .catch((error: unknown) => deps.log.warn({ err: error }, "image upkeep round failed"))
      .finally(() => {
        running = false;
      });
  };
  const first = setTimeout(round, Math.min(60_000, deps.intervalMs));
  const timer = setInterval(round, deps.intervalMs);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
