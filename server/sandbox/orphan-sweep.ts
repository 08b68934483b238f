import "server-only";
import type Docker from "dockerode";
import type { Logger } from "pino";
import {
  LABEL_INSTANCE,
  LABEL_MANAGED,
  LABEL_POOL,
  LABEL_POOL_KEY,
  LABEL_SESSION,
  POOL_NAME_PREFIX,
  SESSION_NAME_PREFIX,
} from "./container-spec";
import { dockerMessage, statusOf } from "./docker-errors";
import type { LiveSessionsQuery, SandboxError } from "./types";

/** A warm container waiting to be claimed (see DockerSandboxProvider's pool). */
export interface PoolEntry {
  id: string;
  name: string;
  /** What it was made with (LABEL_POOL_KEY); a claim takes only an entry with the wanted key. */
  key?: string;
}

export interface OrphanSweepDeps {
  docker: Docker;
  /** Only this instance's containers are swept (LABEL_INSTANCE). */
  instance: string;
  image: string;
  log: Logger;
  /** Already in this process's pool: left alone. */
  isPooled(containerId: string): boolean;
  /** Takes a running pool container of the current image into the pool; false when it is full. */
  adopt(entry: PoolEntry): boolean;
  /** Drops the container's persistent shell before it is removed. */
  forget(containerId: string): void;
  wrap(error: unknown, action: string): SandboxError;
}

/**
 * Removes this instance's containers whose session is no longer live (crashed runs, discarded work
 * whose removal failed), and pool containers that cannot be adopted. Split from the provider because
 * it is a policy over the engine's listing, not part of creating or running a sandbox.
 */
export async function sweepOrphanContainers(
  isLive: LiveSessionsQuery,
  deps: OrphanSweepDeps,
): Promise<{ removed: string[]; kept: string[] }> {
  const { docker, log } = deps;
  let containers: Docker.ContainerInfo[];
  try {
    containers = await docker.listContainers({
      all: true,
      filters: { label: [`${LABEL_MANAGED}=true`, `${LABEL_INSTANCE}=${deps.instance}`] },
    });
  } catch (error) {
    throw deps.wrap(error, "list sandbox containers");
  }
  // Unclaimed pool containers of this instance are kept (adopted when this process did not make
  // them), as long as they run the current image; the others are removed like orphans.
  const imageId = await docker
    .getImage(deps.image)
    .inspect()
    .then((image) => image.Id)
    .catch(() => undefined);
  const sessionOf = (c: Docker.ContainerInfo): string | undefined => {
    const byName = c.Names.map((n) => n.replace(/^\//, "")).find((n) => n.startsWith(SESSION_NAME_PREFIX));
    // A claimed pool container has no session label: its name says which session it belongs to.
    return byName ? byName.slice(SESSION_NAME_PREFIX.length) : c.Labels[LABEL_SESSION];
  };
  const isPoolEntry = (c: Docker.ContainerInfo) =>
    c.Labels[LABEL_POOL] === "true" && c.Names.some((n) => n.replace(/^\//, "").startsWith(POOL_NAME_PREFIX));
  const sessionIds = [
    ...new Set(
      containers
        .filter((c) => !isPoolEntry(c))
        .map(sessionOf)
        .filter((id) => id !== undefined),
    ),
  ];
  const live = sessionIds.length > 0 ? await isLive(sessionIds) : new Set<string>();
  const removed: string[] = [];
  const kept: string[] = [];
  for (const container of containers) {
    if (isPoolEntry(container)) {
      if (deps.isPooled(container.Id)) continue;
      const adopted =
        container.State === "running" &&
        imageId !== undefined &&
        container.ImageID === imageId &&
        deps.adopt({
          id: container.Id,
          name: container.Names[0]?.replace(/^\//, "") ?? container.Id,
          ...(container.Labels?.[LABEL_POOL_KEY] ? { key: container.Labels[LABEL_POOL_KEY] } : {}),
        });
      if (adopted) continue;
    }
    const sessionId = isPoolEntry(container) ? undefined : sessionOf(container);
    const label = sessionId ?? container.Names[0] ?? container.Id;
    if (sessionId !== undefined && live.has(sessionId)) {
      kept.push(sessionId);
      continue;
    }
    try {
      deps.forget(container.Id);
      await docker.getContainer(container.Id).remove({ force: true, v: true });
      removed.push(label);
    } catch (error) {
      if (statusOf(error) === 404) removed.push(label);
      else
        log.warn({ container: container.Id, err: dockerMessage(error) }, "could not remove orphaned sandbox");
    }
  }
  if (removed.length > 0) log.info({ removed }, "removed orphaned sandboxes");
  return { removed, kept };
}
