import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DockerSandboxProvider } from "./docker-provider";
import { cleanUp, PREFIX, silent, testProvider } from "./docker-testing";
import type { Sandbox } from "./types";

/** Containment: what runs in a sandbox stays there. Real Docker engine (scripts/ensure-docker.sh starts it). */
let provider: DockerSandboxProvider;

beforeAll(() => {
  provider = testProvider("pool");
}, 600_000);

afterAll(async () => cleanUp(provider));

describe("containment", () => {
  let box: Sandbox;
  let neighbour: Sandbox;

  beforeAll(async () => {
    [box, neighbour] = await Promise.all([
      provider.create({ sessionId: `${PREFIX}-contain` }),
      provider.create({ sessionId: `${PREFIX}-neighbour` }),
    ]);
  });

  afterAll(async () => {
    await Promise.all([box?.dispose(), neighbour?.dispose()]);
  });

  it("stops a fork bomb at the pids limit while another sandbox stays responsive", async () => {
    const bomb = box.exec(":(){ :|:& };:", { timeoutMs: 20_000 });
    try {
      // Wait for the bomb to reach the limit (slower on a loaded machine), then time a neighbour's
      // commands while it is still running.
      const pidsNow = () =>
        Number(
          execFileSync("docker", ["stats", "--no-stream", "--format", "{{.PIDs}}", box.containerName], {
            encoding: "utf8",
          }).trim(),
        );
      // The bomb fills the limit and the engine holds it there.
      await expect.poll(pidsNow, { timeout: 12_000, interval: 500 }).toBeGreaterThan(200);
      expect(pidsNow()).toBeLessThanOrEqual(256);
      for (let i = 0; i < 3; i++) {
        const started = Date.now();
        const answer = await neighbour.exec("true");
        expect(answer.exitCode).toBe(0);
        expect(Date.now() - started).toBeLessThan(3_000);
      }
    } finally {
      const result = await bomb;
      expect(result.timedOut).toBe(true);
      expect(result.killedReason).toBe("timeout");
    }
    // The bomb is gone and the sandbox works again.
    await expect.poll(async () => (await box.exec("echo alive")).stdout, { timeout: 15_000 }).toBe("alive\n");
  });

  it("kills a memory hog at the memory limit, says so, and keeps working", async () => {
    const result = await box.exec(`python3 -c "a=' '*2**31; print('survived')"`, { timeoutMs: 60_000 });
    expect(result.exitCode).toBe(137);
    expect(result.timedOut).toBe(false);
    expect(result.oomKilled).toBe(true);
    expect(result.killedReason).toBe("oom");
    expect(result.stdout).not.toContain("survived");
    const after = await box.exec("echo still here");
    expect(after).toMatchObject({ exitCode: 0, stdout: "still here\n" });
    expect(after.oomKilled).toBeUndefined();
  });

  it("reports an OOM kill on the plain docker exec path too", async () => {
    const slow = new DockerSandboxProvider({ logger: silent, instance: PREFIX, persistentShell: false });
    const plain = await slow.get(box.sessionId);
    const result = await plain?.exec("head -c 2G /dev/zero | tail", { timeoutMs: 60_000 });
    expect(result).toMatchObject({ exitCode: 137, timedOut: false, oomKilled: true, killedReason: "oom" });
  });

  it("has no egress: neither IP connections nor DNS", async () => {
    const ip = await box.exec(`python3 -c "import socket; socket.create_connection(('1.1.1.1', 53), 2)"`);
    expect(ip.exitCode).not.toBe(0);
    expect(ip.stderr).toMatch(/Network is unreachable|OSError/);
    const dns = await box.exec("getent hosts example.com");
    expect(dns.exitCode).not.toBe(0);
    expect(dns.stdout).toBe("");
  });
});
