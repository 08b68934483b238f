import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanUp, PREFIX, silent, testProvider } from "@/testing/sandbox/docker";
import { DockerSandboxProvider } from "./docker-provider";
import type { Sandbox } from "./types";

/**
 * Stop cuts a running command: an aborted signal kills the command's whole process tree inside the
 * container at once, through the persistent shell and through plain docker exec, and the sandbox
 * runs the next command as usual. Real Docker engine (scripts/ensure-docker.sh starts it).
 */
let provider: DockerSandboxProvider;
let box: Sandbox;

beforeAll(async () => {
  provider = testProvider("abort");
  box = await provider.create({ sessionId: `${PREFIX}-abort` });
}, 600_000);

afterAll(async () => {
  await box?.dispose();
  await cleanUp(provider);
});

/** Runs `command`, aborts it after `afterMs`, and returns the result with the measured wall time. */
async function abortAfter(sandbox: Sandbox, command: string, afterMs: number) {
  const controller = new AbortController();
  const started = performance.now();
  const timer = setTimeout(() => controller.abort(), afterMs);
  const result = await sandbox.exec(command, { signal: controller.signal, timeoutMs: 60_000 });
  clearTimeout(timer);
  return { result, elapsedMs: performance.now() - started };
}

/** Processes still alive in the container whose command line mentions `marker`. */
async function survivors(sandbox: Sandbox, marker: string): Promise<string> {
  const pattern = `[${marker.slice(0, 1)}]${marker.slice(1)}`;
  return (await sandbox.exec(`pgrep -af -- '${pattern}' || true`)).stdout.trim();
}

describe("aborting a running command", () => {
  it("kills `sleep 30` about half a second in, well under 5 s, and the next command works", async () => {
    const { result, elapsedMs } = await abortAfter(box, "echo started; sleep 30", 500);
    expect(elapsedMs).toBeLessThan(5_000);
    expect(elapsedMs).toBeGreaterThanOrEqual(450);
    expect(result).toMatchObject({ aborted: true, killedReason: "aborted", timedOut: false });
    // On a loaded machine the shell may not have echoed yet when the abort lands: either is right.
    expect(["started\n", ""]).toContain(result.stdout);
    expect(result.exitCode).not.toBe(0);
    const next = await box.exec("echo still-usable; pwd");
    expect(next).toMatchObject({ exitCode: 0, stdout: "still-usable\n/workspace\n" });
    expect(next.aborted).toBeUndefined();
    console.info(`stop latency (persistent shell): ${Math.round(elapsedMs - 500)} ms after the abort`);
  });

  it("kills the whole process tree: children and grandchildren that ignore TERM die too", async () => {
    const marker = `abort-tree-${PREFIX}`;
    const command = `(trap '' TERM; bash -c 'sleep 31; : ${marker}' & sleep 32; : ${marker}) & sleep 33; : ${marker}`;
    const { result, elapsedMs } = await abortAfter(box, command, 500);
    expect(result.aborted).toBe(true);
    expect(elapsedMs).toBeLessThan(5_000);
    // Give the kernel a moment to reap, then nothing of the tree may be left.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await survivors(box, marker)).toBe("");
  });

  it("never starts a command whose signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await box.exec("touch /workspace/should-not-exist", { signal: controller.signal });
    expect(result).toMatchObject({ aborted: true, durationMs: 0 });
    expect((await box.exec("ls /workspace/should-not-exist")).exitCode).not.toBe(0);
  });

  it("does the same through plain docker exec (no persistent shell)", async () => {
    const slow = new DockerSandboxProvider({
      logger: silent,
      instance: `${PREFIX}-abort`,
      persistentShell: false,
    });
    const viaExec = await slow.get(box.sessionId);
    if (!viaExec) throw new Error("the sandbox should be found again by session");
    const marker = `abort-slow-${PREFIX}`;
    const { result, elapsedMs } = await abortAfter(viaExec, `sleep 30; : ${marker}`, 500);
    expect(result).toMatchObject({ aborted: true, killedReason: "aborted" });
    expect(elapsedMs).toBeLessThan(5_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await survivors(viaExec, marker)).toBe("");
    expect((await viaExec.exec("echo ok")).stdout).toBe("ok\n");
    console.info(`stop latency (docker exec): ${Math.round(elapsedMs - 500)} ms after the abort`);
  });
});
