import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shellExec } from "@/server/tools/shell-exec";
import { cleanUp, dockerInspect, PREFIX, silent, testProvider } from "@/testing/sandbox/docker";
import { DockerSandboxProvider } from "./docker-provider";
import { limitsOf } from "./resources";

/**
 * Issue #14's items 1 (toolchain versions), 5 (live output) and 6 (resources per project), on the
 * real engine and the real sandbox image.
 */
let provider: DockerSandboxProvider;

beforeAll(() => {
  provider = testProvider("resources");
}, 600_000);

afterAll(async () => cleanUp(provider));

const projectLimits = limitsOf({ cpus: 0.5, memoryMb: 256, pids: 64, workspaceMb: 8 });

describe("a project's resources", () => {
  it("become the container's limits, and a re-attached sandbox reports what Docker has", async () => {
    const sessionId = `${PREFIX}-limits`;
    const sandbox = await provider.create({ sessionId, limits: projectLimits });
    expect(sandbox.limits).toEqual(projectLimits);
    const host = dockerInspect(sandbox.containerName).HostConfig;
    expect(host.NanoCpus).toBe(500_000_000);
    expect(host.Memory).toBe(256 * 1024 * 1024);
    expect(host.MemorySwap).toBe(256 * 1024 * 1024);
    expect(host.PidsLimit).toBe(64);
    // Hardening is unchanged by a project's limits.
    expect(host.ReadonlyRootfs).toBe(true);
    expect(host.CapDrop).toEqual(["ALL"]);
    expect((await provider.get(sessionId))?.limits).toEqual(projectLimits);
  });

  it("a command that leaves /workspace over the cap fails, whatever it exited with", async () => {
    const sandbox = await provider.create({ sessionId: `${PREFIX}-cap`, limits: projectLimits });
    const runtime = {
      sandbox,
      timeoutMs: 30_000,
      maxOutputBytes: 65_536,
      workspaceMaxBytes: 8 * 1024 * 1024,
    };
    const small = await shellExec.execute({ command: "head -c 1000000 /dev/zero > small.bin" }, runtime);
    expect(small.ok).toBe(true);
    const big = await shellExec.execute(
      { command: "head -c 12000000 /dev/zero > big.bin && echo wrote it" },
      runtime,
    );
    expect(big).toMatchObject({ ok: false, code: "workspace_full", exitCode: 0 });
    expect(big.ok ? "" : big.message).toMatch(/over this project's 8\.0 MB cap/);
    expect(big.ok ? "" : big.output).toContain("wrote it");
    // Back under the cap, commands succeed again.
    const cleaned = await shellExec.execute({ command: "rm big.bin" }, runtime);
    expect(cleaned.ok).toBe(true);
  });
});

describe("the warm pool with project resources", () => {
  let pooled: DockerSandboxProvider;

  beforeAll(async () => {
    pooled = new DockerSandboxProvider({ logger: silent, instance: `${PREFIX}-respool`, poolSize: 1 });
    await pooled.fillPool();
  });

  afterAll(async () => {
    await pooled?.sweepOrphans(() => new Set<string>());
    await pooled?.close();
  });

  it("hands a warm container only to a session whose limits match it", async () => {
    expect(pooled.poolReady).toBe(1);
    const own = await pooled.create({ sessionId: `${PREFIX}-own-limits`, limits: projectLimits });
    // Not claimed: the warm one has the server's defaults, this project asked for others.
    expect(pooled.poolReady).toBe(1);
    expect(dockerInspect(own.containerName).HostConfig.PidsLimit).toBe(64);
    const plain = await pooled.create({ sessionId: `${PREFIX}-default-limits` });
    expect(pooled.poolReady).toBe(0);
    expect(dockerInspect(plain.containerName).HostConfig.PidsLimit).toBe(256);
  });
});

describe("the sandbox's toolchains and live output", () => {
  it("reports the image's toolchain versions", async () => {
    const sandbox = await provider.create({ sessionId: `${PREFIX}-tools` });
    const versions = Object.fromEntries(
      (await sandbox.toolchains?.())?.map((tool) => [tool.name, tool.version]) ?? [],
    );
    expect(versions.node).toMatch(/^24\.\d+\.\d+$/);
    expect(versions.npm).toMatch(/^\d+\.\d+\.\d+$/);
    expect(versions.python3).toMatch(/^3\.\d+\.\d+$/);
    expect(versions.pip).toMatch(/^\d+\.\d+/);
    expect(versions.git).toMatch(/^2\./);
    expect(versions.gcc).toMatch(/^\d+\./);
    expect(versions.corepack).toMatch(/^\d+\./);
  });

  it("streams a command's output while it runs, before its result", async () => {
    const sandbox = await provider.create({ sessionId: `${PREFIX}-live` });
    const started = Date.now();
    const arrivals: { at: number; chunk: string }[] = [];
    const result = await sandbox.exec("for i in 1 2 3 4 5; do echo line $i; sleep 0.3; done", {
      onOutput: (_stream, chunk) => arrivals.push({ at: Date.now() - started, chunk }),
    });
    const ended = Date.now() - started;
    expect(result.stdout).toBe("line 1\nline 2\nline 3\nline 4\nline 5\n");
    expect(arrivals.map((arrival) => arrival.chunk).join("")).toBe(result.stdout);
    // The first line arrived well before the end (the command takes ~1.5 s).
    expect(arrivals.length).toBeGreaterThanOrEqual(5);
    expect(arrivals[0]?.at ?? ended).toBeLessThan(ended - 1_000);
  });
});
