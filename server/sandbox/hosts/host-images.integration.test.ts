import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDockerHosts } from "@/server/domain/vocabulary/docker-hosts";
import { LABEL_MANAGED } from "@/server/sandbox/container-spec";
import { DockerSandboxProvider } from "@/server/sandbox/docker-provider";
import { dockerClientFor, ensureImageOn, imageIdOf } from "@/server/sandbox/hosts/docker-host";
import { type HostPins, MultiHostSandboxProvider } from "@/server/sandbox/hosts/multi-host-provider";
import { containerNameFor } from "@/server/sandbox/shell";
import { PREFIX, ROOT, silent } from "@/testing/sandbox/docker";
import { ensureSmallSandboxImage } from "@/testing/sandbox/small-image";

/**
 * Issue #19, images on other hosts: the local engine and a second dockerd of this test's own
 * (deploy/docker-host.sh, its data kept between runs). The provider's sandbox image is a name of this
 * test's: the small test sandbox image (testing/sandbox/small-image.ts: the Debian base with tini, so
 * each copy moves ~120 MB, not arbor-sandbox's 765 MB) plus a one-file layer made with docker commit,
 * so `arbor-sandbox:latest` itself is never touched; "rebuilding" it moves the name to another
 * commit. A session on the second host runs the first build; after the rebuild the next session there
 * runs the new image ID (not the stale copy, not a warm container of it), the image upkeep removes the
 * stale copy once its session is gone, the status shows which ID each host has and what the upkeep
 * removed, an old project image goes from every host while the current one stays, and a project's
 * images go from every host when it is deleted.
 */
const SCRIPT = path.join(ROOT, "deploy/docker-host.sh");
const ENGINE = { ARBOR_DOCKER_HOST_NAME: "arbor-dh-images", ARBOR_DOCKER_HOST_NET: "234" };
const IMAGE = `arbor-images-test:${PREFIX}`;
const docker = (...args: string[]) =>
  execFileSync("docker", args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();

/** A new build of IMAGE on the local engine: the previous one plus /etc/arbor-image-version. */
function rebuild(from: string, version: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), "arbor-images-"));
  const name = `${PREFIX}-build-${version}`;
  try {
    writeFileSync(path.join(dir, "arbor-image-version"), `${version}\n`);
    // create + cp + commit keeps the image's own entrypoint and command (a `docker run` would not).
    docker("create", "--name", name, from);
    docker("cp", path.join(dir, "arbor-image-version"), `${name}:/etc/arbor-image-version`);
    docker("commit", name, IMAGE);
    return docker("image", "inspect", "--format", "{{.Id}}", IMAGE);
  } finally {
    docker("rm", "-f", name);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The projects this test's "database" knows and the image each runs now (Project.sandboxImage). */
const currentImages = new Map<string, string | null>();
const projectImages = async (ids: string[]) => new Map([...currentImages].filter(([id]) => ids.includes(id)));

const pinned = new Map<string, string | null>();
const pins: HostPins = {
  hostOf: async (sessionId) => pinned.get(sessionId) ?? null,
  pin: async (sessionId, hostId) => void pinned.set(sessionId, hostId),
};

let localDocker: Docker;
let remoteDocker: Docker;
let local: DockerSandboxProvider;
let remote: DockerSandboxProvider;
let multi: MultiHostSandboxProvider;
let remoteId: string;
const builds: string[] = [];

/** The image ID the session's container on the second host was made from (a claimed warm one too). */
async function imageOfSession(sessionId: string): Promise<string | undefined> {
  const container = await remoteDocker.getContainer(containerNameFor(sessionId)).inspect();
  return container.Image;
}

describe.skipIf(process.getuid?.() !== 0)("sandbox images on another Docker host", () => {
  beforeAll(async () => {
    const entry = execFileSync("bash", [SCRIPT, "start"], {
      encoding: "utf8",
      env: { ...process.env, ...ENGINE },
    })
      .trim()
      .split("\n")
      .at(-1) as string;
    const [config] = parseDockerHosts(entry);
    if (!config) throw new Error("no host");
    remoteId = config.id;
    localDocker = new Docker();
    remoteDocker = dockerClientFor(config);
    for (const container of await remoteDocker.listContainers({
      all: true,
      filters: { label: [`${LABEL_MANAGED}=true`] },
    }))
      await remoteDocker.getContainer(container.Id).remove({ force: true });
    builds.push(rebuild(ensureSmallSandboxImage(), "v1"));
    const instance = `${PREFIX}-images`;
    const options = { logger: silent, instance, image: IMAGE, persistentShell: false };
    local = new DockerSandboxProvider({ ...options, docker: localDocker });
    remote = new DockerSandboxProvider({
      ...options,
      docker: remoteDocker,
      poolSize: 1,
      poolRefillDelayMs: 60_000,
    });
    multi = new MultiHostSandboxProvider({
      hosts: [
        { config: { id: "local", kind: "local", maxSessions: 4 }, docker: localDocker, provider: local },
        // Every session of this test goes to the second host.
        { config: { ...config, priority: 10 }, docker: remoteDocker, provider: remote },
      ],
      pins,
      imageSource: localDocker,
      instance,
      healthIntervalMs: 60_000,
      log: silent,
    });
  }, 240_000);

  afterAll(async () => {
    await multi?.close();
    await remote?.sweepOrphans(() => new Set());
    await multi?.removeSupersededImages().catch(() => undefined);
    // The test's builds on the local engine (arbor-sandbox's layers stay, they are its own).
    for (const id of builds.reverse())
      try {
        docker("rmi", "-f", id);
      } catch {
        // Already gone (the project's image is removed by the test itself).
      }
    // On the second host: only this run's image name; its layers stay for the next run.
    await remoteDocker
      ?.getImage(IMAGE)
      .remove()
      .catch(() => undefined);
    await multi?.removeSupersededImages().catch(() => undefined);
  }, 60_000);

  it("runs the source's image by ID after a rebuild and removes the stale copy once unused", async () => {
    const [v1] = builds as [string];
    const first = await multi.create({ sessionId: `${PREFIX}-1` });
    expect(await multi.hostOf(`${PREFIX}-1`)).toBe(remoteId);
    expect(await imageOfSession(`${PREFIX}-1`)).toBe(v1);
    expect((await first.exec("cat /etc/arbor-image-version")).stdout.trim()).toBe("v1");
    // A warm container of the first build waits on the second host.
    await remote.fillPool();
    expect(remote.poolReady).toBe(1);
    expect(await multi.imageStatus()).toMatchObject([
      { id: "local", healthy: true, sandboxImageId: v1, current: true, lastUpkeepAt: null },
      { id: remoteId, healthy: true, sandboxImageId: v1, current: true, imagesRemoved: 0 },
    ]);

    const v2 = rebuild(v1, "v2");
    builds.push(v2);
    expect(await multi.imageStatus()).toContainEqual(
      expect.objectContaining({ id: remoteId, healthy: true, sandboxImageId: v1, current: false }),
    );
    // The next session there runs the new build: copied by ID, the stale warm container discarded.
    const second = await multi.create({ sessionId: `${PREFIX}-2` });
    expect(await imageOfSession(`${PREFIX}-2`)).toBe(v2);
    expect((await second.exec("cat /etc/arbor-image-version")).stdout.trim()).toBe("v2");
    expect(remote.poolReady).toBe(0);
    expect(await imageIdOf(remoteDocker, IMAGE)).toBe(v2);
    // The first session keeps running its build; its copy stays while it does.
    expect((await first.exec("cat /etc/arbor-image-version")).stdout.trim()).toBe("v1");
    expect(await multi.removeSupersededImages()).not.toContain(v1);
    expect(await imageIdOf(remoteDocker, v1)).toBe(v1);
    await first.dispose();
    // The periodic upkeep (what the server runs every ARBOR_DOCKER_HOST_UPKEEP_MS) takes it now.
    expect(await multi.upkeepImages(projectImages, 0)).toContainEqual(
      expect.objectContaining({ host: remoteId, id: v1, reason: "superseded-copy" }),
    );
    expect(await imageIdOf(remoteDocker, v1)).toBeNull();
    const status = (await multi.imageStatus()).find((host) => host.id === remoteId);
    expect(status?.imagesRemoved).toBeGreaterThanOrEqual(1);
    expect(status?.lastUpkeepAt).toEqual(expect.any(String));
    await second.dispose();
    expect((await multi.imageStatus()).every((host) => host.current && host.sandboxImageId === v2)).toBe(
      true,
    );
  }, 240_000);

  it("removes a project's old image from every host while its current one stays, then all when deleted", async () => {
    const projectId = `${PREFIX}-project`;
    const [older, current] = ["old", "new"].map((hash) => {
      const tag = `arbor-images-project:${PREFIX}-${hash}`;
      // A one-file image labelled as a project's build (what project-images.ts labels its builds with).
      const dir = mkdtempSync(path.join(tmpdir(), "arbor-images-"));
      writeFileSync(path.join(dir, "marker"), `${hash}\n`);
      execFileSync("tar", ["-C", dir, "-cf", path.join(dir, "layer.tar"), "marker"]);
      docker("import", "--change", `LABEL arbor.project=${projectId}`, path.join(dir, "layer.tar"), tag);
      rmSync(dir, { recursive: true, force: true });
      const id = docker("image", "inspect", "--format", "{{.Id}}", tag);
      builds.push(id);
      return { tag, id };
    }) as [{ tag: string; id: string }, { tag: string; id: string }];
    for (const { tag, id } of [older, current]) {
      expect(await ensureImageOn(remoteDocker, localDocker, tag, id)).toBe("copy");
      expect(await imageIdOf(remoteDocker, tag)).toBe(id);
    }

    // The project now runs its `new` build: the old one goes from both engines, nothing else of ours.
    currentImages.set(projectId, current.tag);
    const removed = await multi.upkeepImages(projectImages, 0);
    expect(removed.filter((entry) => entry.reason === "old-project-image")).toEqual([
      expect.objectContaining({ host: "local", id: older.id }),
      expect.objectContaining({ host: remoteId, id: older.id }),
    ]);
    expect(await imageIdOf(remoteDocker, older.id)).toBeNull();
    expect(await imageIdOf(localDocker, older.id)).toBeNull();
    expect(await imageIdOf(remoteDocker, current.tag)).toBe(current.id);

    const { images } = await multi.removeProjectArtifacts(projectId);
    expect(images.sort()).toEqual([current.id, current.id]);
    expect(await imageIdOf(remoteDocker, current.id)).toBeNull();
    expect(await imageIdOf(localDocker, current.id)).toBeNull();
  }, 60_000);
});
