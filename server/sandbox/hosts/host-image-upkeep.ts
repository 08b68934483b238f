import "server-only";
import type Docker from "dockerode";
import type { Logger } from "pino";
import { statusOf } from "../docker-errors";
import { imageIdOf } from "./docker-host";
import {
  copiedNames,
  type ImageToRemove,
  imagesToRemove,
  LABEL_PROJECT,
  type UpkeepImage,
} from "./image-upkeep";

/** Each known project's current image (Project.sandboxImage), for the projects named; unknown ones absent. */
export type CurrentProjectImages = (projectIds: string[]) => Promise<ReadonlyMap<string, string | null>>;

export interface EngineUpkeepOptions {
  /** The engine images are copied from; null when `docker` is that engine (it holds no copies). */
  source: Docker | null;
  currentProjectImages: CurrentProjectImages;
  minProjectImageAgeMs: number;
  /**
   * Images kept whatever their marks say: the server's sandbox image, which ARBOR_SANDBOX_IMAGE may name
   * by ID (an unnamed build). A name the engine cannot resolve now fails the round: nothing is removed.
   */
  keepImages?: readonly string[];
  nowMs?: number;
}

/**
 * One engine's upkeep: reads its images and containers (all of them, stopped and warm-pool ones too),
 * asks imagesToRemove what Arbor's own images nothing needs any more, and removes those (removeUnused:
 * an image a container was made from since the listing is kept for the next round). Returns what was
 * removed.
 */
export async function upkeepEngineImages(
  docker: Docker,
  options: EngineUpkeepOptions,
): Promise<ImageToRemove[]> {
  const [images, containers, kept] = await Promise.all([
    docker.listImages() as Promise<UpkeepImage[]>,
    docker.listContainers({ all: true }),
    Promise.all((options.keepImages ?? []).map((name) => imageIdOf(docker, name))),
  ]);
  const projectIds = [...new Set(images.flatMap((image) => image.Labels?.[LABEL_PROJECT] ?? []))] as string[];
  const currentProjectImages =
    projectIds.length > 0 ? await options.currentProjectImages(projectIds) : new Map<string, null>();
  const sourceIds = new Map<string, string | null>();
  if (options.source) {
    const source = options.source;
    await Promise.all(
      copiedNames(images).map(async (name) => {
        // A source that does not answer for a name decides nothing: the copy stays.
        const id = await imageIdOf(source, name).catch(() => undefined);
        if (id !== undefined) sourceIds.set(name, id);
      }),
    );
  }
  const candidates = imagesToRemove({
    images,
    usedImageIds: new Set([
      ...containers.map((container) => container.ImageID),
      ...kept.filter((id): id is string => id !== null),
    ]),
    sourceIds,
    currentProjectImages,
    nowMs: options.nowMs ?? Date.now(),
    minProjectImageAgeMs: options.minProjectImageAgeMs,
  });
  const removed: ImageToRemove[] = [];
  for (const candidate of candidates)
    if (await removeUnused(docker, candidate.id).catch(() => false)) removed.push(candidate);
  return removed;
}

/** What the image upkeep has done on one engine since the server started (the status bar shows it). */
export interface EngineUpkeepStatus {
  imagesRemoved: number;
  /** When the upkeep last looked at the engine (ISO time); null: not yet. */
  lastUpkeepAt: string | null;
}

/**
 * The periodic image upkeep of one engine — the local one when no ARBOR_DOCKER_HOSTS is set, or each
 * listed host — with what it has removed so far. A round that fails is logged and changes nothing: its
 * images are looked at again next round.
 */
export class EngineImageUpkeep {
  private removed = 0;
  private at: string | null = null;

  readonly hostId: string;

  constructor(
    private readonly options: {
      hostId: string;
      docker: Docker;
      /** The engine images are copied from; null when this engine is that one. */
      source: Docker | null;
      /** The server's sandbox image on this engine: never removed (see EngineUpkeepOptions). */
      keepImages: readonly string[];
      log: Logger;
    },
  ) {
    this.hostId = options.hostId;
  }

  get status(): EngineUpkeepStatus {
    return { imagesRemoved: this.removed, lastUpkeepAt: this.at };
  }

  async run(
    currentProjectImages: CurrentProjectImages,
    minProjectImageAgeMs: number,
  ): Promise<Array<ImageToRemove & { host: string }>> {
    const { docker, source, keepImages, log } = this.options;
    const removed = await upkeepEngineImages(docker, {
      source,
      currentProjectImages,
      minProjectImageAgeMs,
      keepImages,
    }).catch((error: unknown) => {
      log.warn({ host: this.hostId, err: error }, "image upkeep on a host failed");
      return null;
    });
    if (removed === null) return [];
    this.removed += removed.length;
    this.at = new Date().toISOString();
    if (removed.length > 0) log.info({ host: this.hostId, removed }, "old images removed from host");
    return removed.map((image) => ({ ...image, host: this.hostId }));
  }
}

/**
 * Removes an image by ID (never by name: a name may have moved to a newer image since the listing).
 * The engine refuses an image with names in several repositories (a copy's name plus its `arbor-copy:`
 * tag) unless forced, and force would also pass over a stopped container: so it is forced only after
 * asking again, just before, that no container was made from it.
 */
async function removeUnused(docker: Docker, id: string): Promise<boolean> {
  try {
    await docker.getImage(id).remove();
    return true;
  } catch (error) {
    if (statusOf(error) !== 409 || !/must be forced/.test(String(error))) return false;
  }
  const users = await docker.listContainers({ all: true, filters: { ancestor: [id] } });
  if (users.length > 0) return false;
  await docker.getImage(id).remove({ force: true });
  return true;
}
