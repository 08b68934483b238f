import "server-only";

/**
 * Images Arbor copies to another Docker host carry, besides their own name, the tag
 * `arbor-copy:<image id hex>`. An image cannot be labelled after it is built without changing its ID,
 * so this tag is how a host's clean-up knows which images Arbor put there: an image without it is
 * never touched.
 */
export const COPY_REPO = "arbor-copy";

export function copyTagOf(imageId: string): { repo: string; tag: string } {
  return { repo: COPY_REPO, tag: imageId.replace(/^sha256:/, "") };
}

/** `repo[:tag]` split for the Engine API's tag call; a registry port (`host:5000/x`) is not a tag. */
export function splitImageName(name: string): { repo: string; tag: string } {
  const colon = name.lastIndexOf(":");
  if (colon <= name.lastIndexOf("/")) return { repo: name, tag: "latest" };
  return { repo: name.slice(0, colon), tag: name.slice(colon + 1) };
}

/** What the copy of one image to a host has to do, given what the host has now. */
export type CopyStep = "present" | "tag" | "copy";

/**
 * `present` when the host's image of that name is the source's by ID (docker save | load keeps the
 * ID, the digest of the image's config); `tag` when the host already has that ID under another name
 * (e.g. an older copy the name points back to); else `copy`.
 */
export function copyStep(sourceId: string, hostIdOfName: string | null, hostHasId: boolean): CopyStep {
  if (hostIdOfName === sourceId) return "present";
  return hostHasId ? "tag" : "copy";
}

export interface HostImage {
  Id: string;
  RepoTags?: string[] | null;
}

/**
 * The copies on a host that nothing needs any more: Arbor's (an `arbor-copy:` tag) whose name has
 * moved on to a newer copy (no tag left but Arbor's own) and that no container, running or stopped,
 * was made from.
 */
export function supersededCopies(images: HostImage[], usedImageIds: ReadonlySet<string>): string[] {
  return images
    .filter((image) => {
      const tags = (image.RepoTags ?? []).filter((tag) => tag !== "<none>:<none>");
      const ours = tags.filter((tag) => tag.startsWith(`${COPY_REPO}:`));
      return ours.length > 0 && ours.length === tags.length && !usedImageIds.has(image.Id);
    })
    .map((image) => image.Id);
}

/** One host's sandbox image as the operator sees it: which ID it has and whether it is the source's. */
export interface HostImageStatus {
  id: string;
  healthy: boolean;
  /** The host's image ID for the sandbox image's name; null when it has none (or did not answer). */
  sandboxImageId: string | null;
  /** The host's image is the source engine's by ID (a host without it gets it on first use). */
  current: boolean;
  /** Old images of Arbor's removed from the host by the image upkeep since the server started. */
  imagesRemoved: number;
  /** When the upkeep last looked at the host (ISO time); null: not yet. */
  lastUpkeepAt: string | null;
}
