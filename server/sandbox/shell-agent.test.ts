import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Duplex, type Writable } from "node:stream";
import type Docker from "dockerode";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AgentUnavailableError, ShellAgent } from "./shell-agent";
import { AGENT_SOURCE } from "./shell-agent-source";

/**
 * The agent's protocol, end to end, without Docker: the same Python source runs as a local process
 * behind a stand-in for dockerode's exec (stdout passed through where Docker would multiplex).
 */
let dir: string;
const running: Array<{ agent: ShellAgent; child: ChildProcess }> = [];

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "arbor-agent-"));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

afterEach(() => {
  for (const { agent, child } of running.splice(0)) {
    agent.close();
    child.kill("SIGKILL");
  }
});

async function startLocalAgent(): Promise<{ agent: ShellAgent; child: ChildProcess }> {
  const child = spawn("python3", ["-u", "-c", AGENT_SOURCE], { cwd: dir, stdio: ["pipe", "pipe", "pipe"] });
  const stream = Duplex.from({ readable: child.stdout, writable: child.stdin });
  const container = {
    exec: async () => ({ start: async () => stream }),
    modem: {
      demuxStream: (source: NodeJS.ReadableStream, stdout: Writable) => {
        source.pipe(stdout);
      },
    },
  } as unknown as Docker.Container;
  const agent = await ShellAgent.start(container);
  const entry = { agent, child };
  running.push(entry);
  return entry;
}

const run = (agent: ShellAgent, argv: string[], extra: Parameters<ShellAgent["run"]>[1] | object = {}) =>
  agent.run(argv, { deadlineMs: 10_000, ...extra });

describe("ShellAgent", () => {
  it("runs a command with separate stdout and stderr and its exit code", async () => {
    const { agent } = await startLocalAgent();
    const result = await run(agent, ["bash", "-c", "echo out; echo err >&2; exit 3"]);
    expect(result).toEqual({
      exitCode: 3,
      stdout: "out\n",
      stderr: "err\n",
      truncated: false,
      deadlineHit: false,
      oomKilled: false,
    });
  });

  it("keeps concurrent commands apart", async () => {
    const { agent } = await startLocalAgent();
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map((i) =>
        run(agent, ["bash", "-c", `for j in 1 2 3; do echo ${i}-$j; sleep 0.0${i}; done; exit ${i}`]),
      ),
    );
    results.forEach((result, index) => {
      const i = index + 1;
      expect(result.exitCode).toBe(i);
      expect(result.stdout).toBe(`${i}-1\n${i}-2\n${i}-3\n`);
    });
  });

  it("feeds stdin byte for byte and closes it; without stdin the command sees EOF", async () => {
    const { agent } = await startLocalAgent();
    const text = `ünïcödé ✓ "quotes" $HOME\n${"x".repeat(200_000)}\nend`;
    expect((await run(agent, ["cat"], { stdin: text })).stdout).toBe(text);
    expect((await run(agent, ["cat"], { stdin: "" })).stdout).toBe("");
    expect((await run(agent, ["cat"])).stdout).toBe("");
  });

  it("streams output as it comes and caps what it keeps", async () => {
    const { agent } = await startLocalAgent();
    const chunks: string[] = [];
    const result = await run(
      agent,
      ["bash", "-c", "echo HEAD; head -c 100000 /dev/zero | tr '\\0' a; echo; echo TAIL"],
      {
        maxOutputBytes: 1_000,
        onOutput: (_stream: string, chunk: string) => chunks.push(chunk),
      },
    );
    expect(result.truncated).toBe(true);
    expect(result.stdout.startsWith("HEAD\n")).toBe(true);
    expect(result.stdout.endsWith("TAIL\n")).toBe(true);
    expect(chunks.join("").length).toBe(100_011);
  });

  it("does the wrapper's job directly: cwd, $0, TERM then KILL on time", async () => {
    const { agent } = await startLocalAgent();
    const direct = (command: string, timeoutMs = 10_000) => ({
      direct: { command, cwd: dir, tag: "arbor-exec-unit", timeoutMs, killAfterMs: 300 },
    });
    const plain = await run(agent, ["false"], direct('pwd; echo "$0"; echo "$OLDPWD"'));
    expect(plain.stdout).toBe(`${dir}\narbor-exec-unit\n${dir}\n`);
    const term = await run(agent, ["false"], direct("echo a; sleep 5", 200));
    expect(term).toMatchObject({ exitCode: 124, stdout: "a\n" });
    const started = Date.now();
    const kill = await run(agent, ["false"], direct("trap '' TERM; echo b; sleep 5", 200));
    expect(kill).toMatchObject({ exitCode: 137, stdout: "b\n" });
    // Without the KILL the trapped command would run its full 5 s; under that proves it, with room for load.
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  it("runs the given argv when the direct cwd is not usable", async () => {
    const { agent } = await startLocalAgent();
    const result = await run(agent, ["bash", "-c", "echo fallback"], {
      direct: {
        command: "echo direct",
        cwd: path.join(dir, "missing"),
        tag: "t",
        timeoutMs: 1_000,
        killAfterMs: 100,
      },
    });
    expect(result.stdout).toBe("fallback\n");
  });

  it("reports a command that cannot start as not started (safe to retry another way)", async () => {
    const { agent } = await startLocalAgent();
    const error = await run(agent, ["/nonexistent/binary"]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentUnavailableError);
    expect((error as AgentUnavailableError).notStarted).toBe(true);
    expect(agent.isAlive).toBe(true);
    expect((await run(agent, ["echo", "still"])).stdout).toBe("still\n");
  });

  it("fails running commands when the agent dies, and refuses new ones", async () => {
    const { agent, child } = await startLocalAgent();
    const pending = run(agent, ["bash", "-c", "echo started; sleep 5"]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    child.kill("SIGKILL");
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentUnavailableError);
    expect((error as AgentUnavailableError).notStarted).toBe(false);
    expect(agent.isAlive).toBe(false);
    const refused = await run(agent, ["true"]).catch((e: unknown) => e);
    expect((refused as AgentUnavailableError).notStarted).toBe(true);
  });

  it("gives up at the host deadline", async () => {
    const { agent } = await startLocalAgent();
    let called = 0;
    const result = await run(agent, ["sleep", "5"], { deadlineMs: 200, onDeadline: () => called++ });
    expect(result).toMatchObject({ deadlineHit: true, exitCode: 124 });
    expect(called).toBe(1);
  });
});
