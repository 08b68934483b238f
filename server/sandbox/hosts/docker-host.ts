import "server-only";
import { readFileSync } from "node:fs";
import path from "node:path";
import Docker from "dockerode";
import type { DockerHostConfig } from "@/server/domain/vocabulary/docker-hosts";
import { LABEL_INSTANCE, LABEL_MANAGED, LABEL_SESSION } from "../container-spec";
import { statusOf } from "../docker-errors";
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

/**
 * Makes sure `image` is on `target`: there is no registry, so the image travels from `source` (the
 * engine that has it, where the sandbox image and project images are built) as `docker save | docker
 * load`, streamed. A no-op when the target has it already (its data directory keeps it).
 */
export async function ensureImageOn(
  target: Docker,
  source: Docker,
  image: string,
): Promise<"present" | "copied"> {
  try {
    await target.getImage(image).inspect();
    return "present";
  } catch (error) {
    if (statusOf(error) !== 404) throw error;
  }
  const archive = await source.getImage(image).get();
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
  if (/"error"/.test(output)) throw new Error(`docker load of ${image} failed: ${output.slice(0, 300)}`);
  await target.getImage(image).inspect();
  return "copied";
}
