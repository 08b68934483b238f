import "server-only";
import { readFileSync } from "node:fs";
import path from "node:path";
import Docker from "dockerode";
import type { DockerHostConfig } from "@/server/domain/vocabulary/docker-hosts";
import { LABEL_INSTANCE, LABEL_MANAGED, LABEL_SESSION } from "../container-spec";
import { statusOf } from "../docker-errors";
import {
  COPY_REPO,
  type CopyStep,
  copyStep,
  copyTagOf,
  splitImageName,
  supersededCopies,
} from "./image-copies";
import type { HostLoad } from "./placement";

/** A dockerode client for one configured host; a tcp host always speaks mutual TLS. */
export function dockerClientFor(host: DockerHostConfig): Docker {
  if (host.kind === "local") return new Docker();
  if (host.kind === "unix") return new Docker({ socketPath: host.socketPath as string });
  const dir = host.tlsDir as string;
  return new Docker({
    protocol: "https",
    host: host.host as string,
    port: host.port as number,
    ca: readFileSync(path.join(dir, "ca.pem")),
    cert: readFileSync(path.join(dir, "cert.pem")),
    key: readFileSync(path.join(dir, "key.pem")),
  });
}

/** Running sessions and memory left on one engine, from its own listing (this instance's sandboxes only). */
export async function measureHost(
  docker: Docker,
  host: DockerHostConfig,
  instance: string,
): Promise<Omit<HostLoad, "healthy">> {
  const [info, containers] = await Promise.all([
    docker.info() as Promise<{ MemTotal?: number }>,
    docker.listContainers({
      filters: { label: [`${LABEL_MANAGED}=true`, `${LABEL_INSTANCE}=${instance}`, LABEL_SESSION] },
    }),
  ]);
  const limits = await Promise.all(
    containers.map((container) =>
      docker
        .getContainer(container.Id)
        .inspect()
        .then((details) => details.HostConfig.Memory ?? 0)
        .catch(() => 0),
    ),
  );
  const reserved = limits.reduce((sum, bytes) => sum + bytes, 0);
  return {
    id: host.id,
    runningSessions: containers.length,
    maxSessions: host.maxSessions,
    ...(host.priority === undefined ? {} : { priority: host.priority }),
    freeMemoryBytes: (info.MemTotal ?? 0) - reserved,
  };
}

/** The ID of the image `name` on an engine, or null when it has no image of that name. */
export async function imageIdOf(docker: Docker, name: string): Promise<string | null> {
  try {
    return ((await docker.getImage(name).inspect()) as { Id: string }).Id;
  } catch (error) {
    if (statusOf(error) === 404) return null;
    throw error;
  }
}

/** `image` as the source engine has it now, on the target by ID (ensureImageOn); absent on the source: an error. */
export async function copyImageByName(target: Docker, source: Docker, image: string): Promise<CopyStep> {
  const sourceId = await imageIdOf(source, image);
  if (sourceId === null) throw new Error(`The image ${image} is not on the engine it is copied from.`);
  return ensureImageOn(target, source, image, sourceId);
}

/**
 * Makes sure `image` on `target` is the source's image `sourceId` (what the name points to on the
 * source, read by the caller): there is no registry, so the image travels from `source` (the engine
 * the sandbox image and project images are built on) as `docker save | docker load`, streamed, by ID.
 * The name is moved to the loaded image only once the load has finished, so a half-loaded image is
 * never used; the image the name pointed to before keeps only its `arbor-copy:` tag (if Arbor put it
 * there) and is removed by removeSupersededCopies once no container uses it.
 */
export async function ensureImageOn(
  target: Docker,
  source: Docker,
  image: string,
  sourceId: string,
): Promise<CopyStep> {
  const hostHasId = async () => (await imageIdOf(target, sourceId)) === sourceId;
  const idOfName = await imageIdOf(target, image);
  const step = copyStep(sourceId, idOfName, idOfName !== sourceId && (await hostHasId()));
  if (step === "present") return step;
  if (step === "copy") {
    const archive = await source.getImage(sourceId).get();
    const loading = (await target.loadImage(archive, { quiet: true })) as NodeJS.ReadableStream;
    // The load reports progress and errors as JSON lines; it is done when the stream ends.
    const output = await new Promise<string>((resolve, reject) => {
      let text = "";
      loading.on("data", (chunk: Buffer) => {
        text += chunk.toString("utf8");
      });
      loading.on("end", () => resolve(text));
      loading.on("error", reject);
    });
    if (/"error"/.test(output) || !(await hostHasId()))
      throw new Error(`docker load of ${image} (${sourceId}) failed: ${output.slice(0, 300)}`);
  }
  // The name first: with only its `arbor-copy:` tag the image would look superseded to a clean-up
  // running at this moment.
  const loaded = target.getImage(sourceId);
  await loaded.tag(splitImageName(image));
  await loaded.tag(copyTagOf(sourceId));
  return step;
}

/**
 * Removes the copies Arbor put on a host that a newer copy superseded and no container uses
 * (supersededCopies decides); an image in use at that moment is simply kept for the next time.
 */
export async function removeSupersededCopies(docker: Docker): Promise<string[]> {
  const [images, containers] = await Promise.all([
    docker.listImages({ filters: { reference: [`${COPY_REPO}:*`] } }),
    docker.listContainers({ all: true }),
  ]);
  const used = new Set(containers.map((container) => container.ImageID));
  const removed: string[] = [];
  for (const id of supersededCopies(images, used)) {
    // Without force: the engine refuses an image a container was made from since the listing.
    await docker
      .getImage(id)
      .remove()
      .then(() => removed.push(id))
      .catch(() => undefined);
  }
  return removed;
}
