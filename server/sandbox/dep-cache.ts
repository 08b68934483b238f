import "server-only";
import { createHash } from "node:crypto";
import type Docker from "dockerode";
import { LABEL_INSTANCE, LABEL_MANAGED } from "./container-spec";
import { LABEL_PROJECT } from "./project-image/project-images";

/**
 * Per-project dependency caches: one Docker volume per project, mounted at /cache in each of its
 * sessions, with the package managers' cache directories pointed into it (not at $HOME, which is the
 * container's own), so the second session's install reads what the first one downloaded.
 */
export const CACHE_DIR = "/cache";
export const LABEL_CACHE_PROJECT = "arbor.cache-project";

export const CACHE_ENV = [
  `npm_config_cache=${CACHE_DIR}/npm`,
  // A lock file pins every tarball by its integrity hash: what the cache holds is used without asking
  // the registry again (that is what makes the second session fast, and work with no network).
  "npm_config_prefer_offline=true",
  // pnpm's content-addressed store is $XDG_DATA_HOME/pnpm/store (pnpm 8, 9 and 10 alike). Not
  // npm_config_store_dir: npm 11 warns "Unknown env config store-dir" on every command it runs.
  `XDG_DATA_HOME=${CACHE_DIR}/data`,
  `PIP_CACHE_DIR=${CACHE_DIR}/pip`,
  `COREPACK_HOME=${CACHE_DIR}/corepack`,
  `YARN_CACHE_FOLDER=${CACHE_DIR}/yarn`,
  `YARN_GLOBAL_FOLDER=${CACHE_DIR}/yarn-berry`,
];

export function cacheVolumeName(instance: string, projectId: string): string {
  return `arbor-cache-${createHash("sha256").update(`${instance}\0${projectId}`).digest("hex").slice(0, 16)}`;
}

/**
 * The project's cache volume, created on first use and handed to the sandbox user (uid 1000): a new
 * volume's root belongs to root, so a throwaway container with no network and only CAP_CHOWN fixes
 * that once.
 */
export async function ensureCacheVolume(
  docker: Docker,
  options: { instance: string; projectId: string; image: string },
): Promise<string> {
  const name = cacheVolumeName(options.instance, options.projectId);
  try {
    await docker.getVolume(name).inspect();
    return name;
  } catch {
    // Not there yet: made below.
  }
  await docker.createVolume({
    Name: name,
    Labels: {
      [LABEL_MANAGED]: "true",
      [LABEL_INSTANCE]: options.instance,
      [LABEL_CACHE_PROJECT]: options.projectId,
    },
  });
  const init = await docker.createContainer({
    Image: options.image,
    User: "0:0",
    Cmd: ["chown", "1000:1000", CACHE_DIR],
    Labels: { [LABEL_MANAGED]: "true", [LABEL_INSTANCE]: options.instance },
    HostConfig: {
      NetworkMode: "none",
      CapDrop: ["ALL"],
      CapAdd: ["CHOWN"],
      SecurityOpt: ["no-new-privileges:true"],
      Mounts: [{ Type: "volume", Source: name, Target: CACHE_DIR }],
      AutoRemove: false,
    },
  });
  try {
    await init.start();
    const { StatusCode } = await init.wait();
    if (StatusCode !== 0) throw new Error(`chown of the cache volume exited ${StatusCode}`);
  } finally {
    await init.remove({ force: true }).catch(() => undefined);
  }
  return name;
}

/** The project's cache volume, made if missing, as a container mounts it (container-spec.ts). */
export async function cacheMount(
  docker: Docker,
  options: Parameters<typeof ensureCacheVolume>[1],
): Promise<{ name: string; target: string; env: string[] }> {
  return { name: await ensureCacheVolume(docker, options), target: CACHE_DIR, env: CACHE_ENV };
}

/**
 * Removes this instance's cache volumes whose project no longer exists (`liveProjects` answers which
 * of the given ids still do), at server start. A volume a container still mounts is kept (the engine
 * refuses: 409) and named in `kept`.
 */
export async function sweepOrphanCacheVolumes(
  docker: Docker,
  instance: string,
  liveProjects: (projectIds: string[]) => Promise<Set<string>>,
): Promise<{ removed: string[]; kept: string[] }> {
  const { Volumes } = await docker.listVolumes({
    filters: { label: [`${LABEL_MANAGED}=true`, `${LABEL_INSTANCE}=${instance}`, LABEL_CACHE_PROJECT] },
  });
  const volumes = (Volumes ?? []).filter((volume) => volume.Labels?.[LABEL_CACHE_PROJECT]);
  const live = await liveProjects([
    ...new Set(volumes.map((volume) => volume.Labels[LABEL_CACHE_PROJECT] ?? "")),
  ]);
  const removed: string[] = [];
  const kept: string[] = [];
  for (const volume of volumes) {
    if (live.has(volume.Labels[LABEL_CACHE_PROJECT] ?? "")) continue;
    try {
      await docker.getVolume(volume.Name).remove();
      removed.push(volume.Name);
    } catch {
      kept.push(volume.Name);
    }
  }
  return { removed, kept };
}

/**
 * What a deleted project leaves in the engine: its cache volume and its built images (labelled with
 * its id by project-images.ts; a project id is unique, so no other project's image matches).
 */
export async function removeProjectArtifacts(
  docker: Docker,
  instance: string,
  projectId: string,
): Promise<{ images: string[] }> {
  await removeCacheVolume(docker, instance, projectId);
  const images = await docker.listImages({ filters: { label: [`${LABEL_PROJECT}=${projectId}`] } });
  const removed: string[] = [];
  for (const image of images) {
    await docker
      .getImage(image.Id)
      .remove({ force: true })
      .then(() => removed.push(image.Id))
      .catch(() => undefined);
  }
  return { images: removed };
}

/** Removes a project's cache volume (when the project is deleted). */
export async function removeCacheVolume(docker: Docker, instance: string, projectId: string): Promise<void> {
  await docker
    .getVolume(cacheVolumeName(instance, projectId))
    .remove()
    .catch(() => undefined);
}
