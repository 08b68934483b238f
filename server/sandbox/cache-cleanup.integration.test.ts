import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Docker from "dockerode";
import { afterAll, beforeAll, expect, it } from "vitest";
import { cleanUp, PREFIX, tempDirs, testProvider } from "@/testing/sandbox/docker";
import { cacheVolumeName, ensureCacheVolume } from "./dep-cache";
import type { DockerSandboxProvider } from "./docker-provider";
import { BASE_BUILD_ARG, buildImage } from "./project-image/build-image";
import { LABEL_PROJECT } from "./project-image/project-images";

/** Dependency caches and project images do not outlive their project (real Docker). */
const docker = new Docker();
const instance = `${PREFIX}-cache-cleanup`;
let provider: DockerSandboxProvider;

const volumeExists = (name: string) =>
  docker
    .getVolume(name)
    .inspect()
    .then(
      () => true,
      () => false,
    );

beforeAll(() => {
  provider = testProvider("cache-cleanup");
}, 600_000);

afterAll(async () => {
  for (const project of ["kept", "gone", "deleted"])
    await docker
      .getVolume(cacheVolumeName(instance, `${PREFIX}-${project}`))
      .remove()
      .catch(() => undefined);
  await cleanUp(provider);
});

it("sweeps the cache volumes of projects that no longer exist, and only this instance's", async () => {
  const [kept, gone] = [`${PREFIX}-kept`, `${PREFIX}-gone`];
  for (const projectId of [kept, gone])
    await ensureCacheVolume(docker, { instance, projectId, image: provider.image });
  // Another server's (instance) volume of a project this one does not know: not ours to remove.
  const foreign = await ensureCacheVolume(docker, {
    instance: `${PREFIX}-other`,
    projectId: gone,
    image: provider.image,
  });
  const asked: string[][] = [];
  const result = await provider.sweepCacheVolumes(async (ids) => {
    asked.push([...ids].sort());
    return new Set([kept]);
  });
  expect(asked).toEqual([[gone, kept].sort()]);
  expect(result.removed).toEqual([cacheVolumeName(instance, gone)]);
  expect(await volumeExists(cacheVolumeName(instance, kept))).toBe(true);
  expect(await volumeExists(cacheVolumeName(instance, gone))).toBe(false);
  expect(await volumeExists(foreign)).toBe(true);
  await docker.getVolume(foreign).remove();
});

it("removes a deleted project's cache volume and its built images", async () => {
  const projectId = `${PREFIX}-deleted`;
  const volume = await ensureCacheVolume(docker, { instance, projectId, image: provider.image });
  const dir = mkdtempSync(path.join(tmpdir(), "arbor-cache-cleanup-"));
  tempDirs.push(dir);
  writeFileSync(
    path.join(dir, "Dockerfile"),
    `ARG ${BASE_BUILD_ARG}\nFROM \${${BASE_BUILD_ARG}}\nRUN echo built > /tmp/built\n`,
  );
  const tag = `${PREFIX}-deleted-image:1`;
  await buildImage({
    docker,
    context: execFileSync("tar", ["-C", dir, "-c", "."]),
    dockerfile: "Dockerfile",
    tag,
    baseImage: provider.image,
    labels: { [LABEL_PROJECT]: projectId },
    onLog: () => undefined,
    networkMode: "none",
  });
  const imageId = (await docker.getImage(tag).inspect()).Id;
  const removed = await provider.removeProjectArtifacts(projectId);
  expect(removed.images).toEqual([imageId]);
  expect(await volumeExists(volume)).toBe(false);
  await expect(docker.getImage(tag).inspect()).rejects.toThrow();
  // The server's own image is untouched.
  expect((await docker.getImage(provider.image).inspect()).Id).toBeTruthy();
});
