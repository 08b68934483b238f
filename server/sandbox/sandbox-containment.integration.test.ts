import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SandboxRuntime } from "@/server/domain/vocabulary/sandbox-runtime";
import { cleanUp, dockerInspect, PREFIX, silent, testProvider } from "@/testing/sandbox/docker";
import { DockerSandboxProvider } from "./docker-provider";
import type { Sandbox } from "./types";

/** Containment: what runs in a sandbox stays there. Real Docker engine (scripts/ensure-docker.sh starts it). */
let provider: DockerSandboxProvider;

beforeAll(() => {
  provider = testProvider("pool");
}, 600_000);

afterAll(async () => cleanUp(provider));

const pidsOf = (container: string) =>
  Number(
    execFileSync("docker", ["stats", "--no-stream", "--format", "{{.PIDs}}", container], {
      encoding: "utf8",
    }).trim(),
  );

/**
 * The same containment under both runtimes a project may choose (scripts/ensure-runsc.sh registers
 * gVisor). Where gVisor contains differently, the test says how: its guest processes are not host
 * processes (the engine's pids count cannot see them), and the host's pids and memory limits apply to
 * the gVisor kernel itself, so a fork bomb or a memory hog ends the whole sandbox (the host and the
 * neighbour never notice), and the session's next use starts it again with its workspace.
 */
describe.each<SandboxRuntime>(["runc", "runsc"])("containment under %s", (runtime) => {
  let box: Sandbox;
  let neighbour: Sandbox;

  beforeAll(async () => {
    [box, neighbour] = await Promise.all([
      // Under gVisor every page fault goes through its kernel, so filling 1 GiB is slow on a loaded
      // machine: its sandbox gets a quarter of that, which the memory hog below reaches sooner.
      provider.create({
        sessionId: `${PREFIX}-contain-${runtime}`,
        runtime,
        ...(runtime === "runsc"
          ? { limits: { memoryBytes: 256 * 1024 ** 2, nanoCpus: 1e9, pidsLimit: 256 } }
          : {}),
      }),
      provider.create({ sessionId: `${PREFIX}-neighbour-${runtime}`, runtime }),
    ]);
    expect(box.runtime).toBe(runtime);
    expect(dockerInspect(box.containerName).HostConfig.Runtime).toBe(runtime);
  });

  afterAll(async () => {
    await Promise.all([box?.dispose(), neighbour?.dispose()]);
  });

  it("contains a fork bomb while another sandbox stays responsive", async () => {
    const bomb = box.exec(":(){ :|:& };:", { timeoutMs: runtime === "runc" ? 20_000 : 10_000 });
    try {
      if (runtime === "runc") {
        // Wait for the bomb to reach the limit (slower on a loaded machine): the engine holds it there.
        await expect
          .poll(() => pidsOf(box.containerName), { timeout: 12_000, interval: 500 })
          .toBeGreaterThan(200);
        expect(pidsOf(box.containerName)).toBeLessThanOrEqual(256);
      } else {
        // gVisor's tasks live inside its own kernel: give the bomb time to spread there.
        await new Promise((resolve) => setTimeout(resolve, 5_000));
      }
      for (let i = 0; i < 3; i++) {
        const started = Date.now();
        const answer = await neighbour.exec("true");
        expect(answer.exitCode).toBe(0);
        expect(Date.now() - started).toBeLessThan(3_000);
      }
    } finally {
      const result = await bomb;
      if (runtime === "runc") {
        // Still running at its time limit: the bomb was alive, and only the limit ended it.
        expect(result.timedOut).toBe(true);
        expect(result.killedReason).toBe("timeout");
      } else {
        // The sandbox died under it: the command comes back at its limit or as soon as the shell is gone,
        // never as a success.
        expect(result.exitCode === 0 && !result.timedOut).toBe(false);
      }
    }
    if (runtime === "runsc") {
      // The bomb took gVisor's kernel down at the host's pids limit; the next use starts the sandbox again.
      const state = JSON.parse(
        execFileSync("docker", ["inspect", "-f", "{{json .State}}", box.containerName], { encoding: "utf8" }),
      );
      expect(state.Running).toBe(false);
      const again = await provider.get(box.sessionId);
      if (!again) throw new Error("the session's sandbox is gone");
      box = again;
      expect(box.runtime).toBe("runsc");
    }
    // The bomb is gone and the sandbox works again.
    await expect.poll(async () => (await box.exec("echo alive")).stdout, { timeout: 15_000 }).toBe("alive\n");
  });

  it("has no egress: neither IP connections nor DNS", async () => {
    const ip = await box.exec(`python3 -c "import socket; socket.create_connection(('1.1.1.1', 53), 2)"`);
    expect(ip.exitCode).not.toBe(0);
    expect(ip.stderr).toMatch(/Network is unreachable|OSError/);
    const dns = await box.exec("getent hosts example.com");
    expect(dns.exitCode).not.toBe(0);
    expect(dns.stdout).toBe("");
  });

  if (runtime === "runc") {
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
  } else {
    it("stops a memory hog at the memory limit (gVisor may end the whole sandbox), and the next use works", async () => {
      // A sandbox gVisor's limit ended answers its command only at the command's time limit (the
      // persistent shell does not see the container die): a short one, as the README says.
      const result = await box.exec(`python3 -c "a=' '*2**31; print('survived')"`, { timeoutMs: 15_000 });
      expect(result.exitCode).not.toBe(0);
      expect(result.stdout).not.toContain("survived");
      const state = JSON.parse(
        execFileSync("docker", ["inspect", "-f", "{{json .State}}", box.containerName], { encoding: "utf8" }),
      );
      // Either gVisor's kernel refused the memory (the command failed, the sandbox lives on) or the host
      // ended the whole sandbox at its limit: then the engine says it was the memory.
      if (!state.Running) expect(state.OOMKilled).toBe(true);
      // The neighbour never noticed; the session's sandbox comes back with its workspace.
      expect((await neighbour.exec("echo fine")).stdout).toBe("fine\n");
      const again = await provider.get(box.sessionId);
      expect(again?.runtime).toBe("runsc");
      expect(await again?.exec("echo back")).toMatchObject({ exitCode: 0, stdout: "back\n" });
    });
  }
});
