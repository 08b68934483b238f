import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  cleanUp,
  containerExists,
  dockerInspect,
  dockerInspectId,
  makeBareRepo,
  PREFIX,
  silent,
  testProvider,
} from "@/testing/sandbox/docker";
import { DockerSandboxProvider } from "./docker-provider";

/** The warm pool: ready containers claimed by new sessions. Real Docker engine (scripts/ensure-docker.sh starts it). */
let provider: DockerSandboxProvider;

beforeAll(() => {
  provider = testProvider("pool");
}, 600_000);

afterAll(async () => cleanUp(provider));

describe("the warm pool", () => {
  const instance = `${PREFIX}-pool`;
  let pooled: DockerSandboxProvider;

  beforeAll(async () => {
    pooled = new DockerSandboxProvider({ logger: silent, instance, poolSize: 2 });
    await pooled.fillPool();
  });

  afterAll(async () => {
    await pooled?.sweepOrphans(() => new Set<string>());
    await pooled?.close();
  });

  function poolContainers(): string[] {
    const out = execFileSync(
      "docker",
      ["ps", "-a", "--filter", `label=arbor.instance=${instance}`, "--format", "{{.Names}}"],
      { encoding: "utf8" },
    );
    return out.split("\n").filter(Boolean).sort();
  }

  it("keeps containers ready, hardened like any sandbox", () => {
    expect(pooled.poolReady).toBe(2);
    const names = poolContainers();
    expect(names).toHaveLength(2);
    for (const name of names) {
      expect(name.startsWith(`arbor-pool-${instance}-`)).toBe(true);
      const info = dockerInspect(name);
      expect(info.HostConfig.ReadonlyRootfs).toBe(true);
      expect(info.HostConfig.NetworkMode).toBe("none");
      expect(info.HostConfig.CapDrop).toEqual(["ALL"]);
    }
  });

  it("claims a warm container for a new session, clones into it, and refills", async () => {
    const before = poolContainers().map(dockerInspectId);
    const box = await pooled.create({ sessionId: `${PREFIX}-warm`, repoPath: makeBareRepo(true) });
    const first = await box.exec("cat README.md; git rev-parse --abbrev-ref HEAD; id -u");
    expect(first.stdout).toBe(`# Sandbox test project\narbor/${PREFIX}-warm\n1000\n`);
    expect(before).toContain(box.id);
    expect(box.containerName).toBe(`arbor-session-${PREFIX}-warm`);
    expect(dockerInspect(box.containerName).HostConfig.ReadonlyRootfs).toBe(true);
    // How much faster a warm claim is than a cold start is measured in bench/, not asserted here.
    // get() finds it by name (its labels still say "pool").
    expect((await pooled.get(`${PREFIX}-warm`))?.id).toBe(box.id);
    expect((await pooled.create({ sessionId: `${PREFIX}-warm` })).id).toBe(box.id);
    await pooled.fillPool();
    expect(pooled.poolReady).toBe(2);
  });

  it("sweeps a claimed container by its name and keeps the pool", async () => {
    const live = await pooled.create({ sessionId: `${PREFIX}-claimed-live` });
    const orphan = await pooled.create({ sessionId: `${PREFIX}-claimed-orphan` });
    await pooled.fillPool();
    const asked: string[] = [];
    const { removed, kept } = await pooled.sweepOrphans((ids) => {
      asked.push(...ids);
      return new Set(ids.filter((id) => id !== orphan.sessionId));
    });
    expect(asked).toEqual(expect.arrayContaining([live.sessionId, orphan.sessionId]));
    expect(asked.some((id) => id.startsWith("arbor-pool-"))).toBe(false);
    expect(removed).toContain(orphan.sessionId);
    expect(kept).toContain(live.sessionId);
    expect(containerExists(orphan.containerName)).toBe(false);
    expect(pooled.poolReady).toBe(2);
    expect(poolContainers().filter((n) => n.startsWith("arbor-pool-"))).toHaveLength(2);
    await live.dispose();
  });

  it("adopts the pool of an earlier process of the same instance", async () => {
    const ids = poolContainers()
      .filter((n) => n.startsWith("arbor-pool-"))
      .map(dockerInspectId);
    const next = new DockerSandboxProvider({ logger: silent, instance, poolSize: 2 });
    await next.sweepOrphans(() => new Set<string>());
    expect(next.poolReady).toBe(2);
    const box = await next.create({ sessionId: `${PREFIX}-adopted` });
    expect(ids).toContain(box.id);
    expect((await box.exec("echo ok")).stdout).toBe("ok\n");
    await box.dispose();
    // Hand the pool back: the first provider's close() removes what is left.
    await next.close();
  });

  it("close() removes the unclaimed pool containers", async () => {
    const other = new DockerSandboxProvider({ logger: silent, instance: `${instance}-b`, poolSize: 1 });
    await other.fillPool();
    expect(other.poolReady).toBe(1);
    await other.close();
    const left = execFileSync(
      "docker",
      ["ps", "-a", "--filter", `label=arbor.instance=${instance}-b`, "--format", "{{.Names}}"],
      { encoding: "utf8" },
    );
    expect(left.trim()).toBe("");
  });
});
