import "server-only";
import { COPY_REPO } from "./image-copies";

/** The project label Arbor's project image builds carry (project-images.ts), kept by save/load. */
export const LABEL_PROJECT = "arbor.project";
/** The label sandbox-image/build.sh puts on the sandbox image (a hash of its recipe). */
export const LABEL_SANDBOX_HASH = "arbor.sandbox.hash";

/** What one engine's image listing says of an image (a subset of dockerode's ImageInfo). */
export interface UpkeepImage {
  Id: string;
  RepoTags?: string[] | null;
  Labels?: Record<string, string> | null;
  /** Seconds since the epoch: when the image was built (save/load keeps it). */
  Created: number;
}

export interface UpkeepFacts {
  images: UpkeepImage[];
  /** Image IDs some container on the engine was made from: running, stopped or waiting in a warm pool. */
  usedImageIds: ReadonlySet<string>;
  /**
   * The image ID each name carried by an Arbor copy has on the source engine now (null: the source
   * has no image of that name). Empty on the source engine itself, which holds no copies.
   */
  sourceIds: ReadonlyMap<string, string | null>;
  /**
   * Each project known to this database: the image its sessions run now (Project.sandboxImage; null
   * when it uses the server's image). A project not in it is left alone (its deletion removes its
   * images; another database on a shared engine may know it).
   */
  currentProjectImages: ReadonlyMap<string, string | null>;
  nowMs: number;
  /**
   * A project image or unnamed sandbox image younger than this is kept: a build just finished may not
   * be recorded (or named) yet.
   */
  minProjectImageAgeMs: number;
}

export type UpkeepReason =
  | "superseded-copy"
  | "stale-copy"
  | "old-project-image"
  | "superseded-sandbox-image";

export interface ImageToRemove {
  id: string;
  reason: UpkeepReason;
  /** The names it had, for the log. */
  tags: string[];
}

function namesOf(image: UpkeepImage): string[] {
  return (image.RepoTags ?? []).filter((tag) => tag !== "<none>:<none>");
}

/** The names an Arbor copy carries for what it is (every tag but its own `arbor-copy:` one). */
export function copiedNames(images: UpkeepImage[]): string[] {
  const names = new Set<string>();
  for (const image of images) {
    const tags = namesOf(image);
    if (!tags.some((tag) => tag.startsWith(`${COPY_REPO}:`))) continue;
    for (const tag of tags) if (!tag.startsWith(`${COPY_REPO}:`)) names.add(tag);
  }
  return [...names];
}

function whyRemove(image: UpkeepImage, facts: UpkeepFacts): UpkeepReason | null {
  const tags = namesOf(image);
  const oldEnough = facts.nowMs - image.Created * 1000 >= facts.minProjectImageAgeMs;
  const projectId = image.Labels?.[LABEL_PROJECT];
  if (projectId !== undefined) {
    if (!facts.currentProjectImages.has(projectId)) return null;
    const current = facts.currentProjectImages.get(projectId) ?? null;
    if (current !== null && tags.includes(current)) return null;
    return oldEnough ? "old-project-image" : null;
  }
  // A sandbox image build.sh made whose name moved on to a newer build: nothing can start from it by
  // name any more. Young ones stay, as the classic builder names its image only after committing it.
  if (image.Labels?.[LABEL_SANDBOX_HASH] !== undefined && tags.length === 0)
    return oldEnough ? "superseded-sandbox-image" : null;
  const ours = tags.filter((tag) => tag.startsWith(`${COPY_REPO}:`));
  // Never anything Arbor did not put there: only images with its `arbor-copy:` tag from here on.
  if (ours.length === 0) return null;
  const names = tags.filter((tag) => !tag.startsWith(`${COPY_REPO}:`));
  if (names.length === 0) return "superseded-copy";
  // Stale: every name it carries points to another build on the source (a name the source does not
  // know, or did not answer for, keeps it).
  const stale = names.every((name) => {
    const sourceId = facts.sourceIds.get(name);
    return typeof sourceId === "string" && sourceId !== image.Id;
  });
  return stale ? "stale-copy" : null;
}

/**
 * The images on one engine that Arbor put there and nothing needs any more: a copy whose name moved to
 * a newer copy, a copy whose names all point to another build on the source engine (the sandbox image
 * rebuilt), a project's image of a hash that is no longer the project's current one, and a sandbox
 * image left without a name by a rebuild — each only when no container, running or stopped (warm pool
 * included), was made from it. Current images, images
 * without Arbor's marks and images of projects this database does not know are always kept.
 */
export function imagesToRemove(facts: UpkeepFacts): ImageToRemove[] {
  const remove: ImageToRemove[] = [];
  for (const image of facts.images) {
    if (facts.usedImageIds.has(image.Id)) continue;
    const reason = whyRemove(image, facts);
    if (reason !== null) remove.push({ id: image.Id, reason, tags: namesOf(image) });
  }
  return remove;
}
