import { execFileSync } from "node:child_process";
import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { UserFacingError } from "@/server/domain/errors";
import type { TerminalFrame } from "@/server/domain/vocabulary/terminal";
import { MemoryEventLog } from "@/server/events/log";
import type { DockerSandboxProvider } from "@/server/sandbox/docker-provider";
import type { Sandbox } from "@/server/sandbox/types";
import { cleanUp, makeBareRepo, PREFIX, silent, testProvider } from "@/testing/sandbox/docker";
import { TerminalHub, type TrackedFrame } from "./hub";

/**
 * The terminal against the real Docker engine: a TTY exec in a real sandbox, driven through the hub
 * exactly as the tRPC procedures drive it.
 */
let provider: DockerSandboxProvider;
let sandbox: Sandbox;
let hub: TerminalHub;
const events = new MemoryEventLog();
const sessionId = `${PREFIX}-term`;
const alice = { userId: "u-alice", name: "Alice" };
const bob = { userId: "u-bob", name: "Bob" };

beforeAll(async () => {
  provider = testProvider("term");
  sandbox = await provider.create({ sessionId, repoPath: makeBareRepo(true) });
  hub = new TerminalHub({
    openTerminal: (id, size) => provider.openTerminal(id, size),
    record: (id, body) => events.append(id, [body]),
    log: silent,
  });
}, 600_000);

afterAll(async () => {
  await hub?.closeAll();
  await cleanUp(provider);
});

/** A watcher: follows the hub in the background and renders what it got as one text, like xterm would. */
function watch(lastId: string | null = null) {
  const controller = new AbortController();
  const frames: TrackedFrame[] = [];
  const done = (async () => {
    for await (const frame of hub.follow(sessionId, lastId, controller.signal)) frames.push(frame);
  })();
  return {
    frames,
    text: () => render(frames.map((f) => f.frame)),
    lastId: () => frames.at(-1)?.id ?? null,
    stop: async () => {
      controller.abort();
      await done;
    },
  };
}

function render(frames: TerminalFrame[]): string {
  let screen = "";
  for (const frame of frames) {
    if (frame.kind === "reset") screen = frame.data;
    if (frame.kind === "output") screen += frame.data;
  }
  return screen;
}

/** Waits until the shell printed its prompt, so typed input is not echoed before bash reads it. */
async function waitForPrompt(watcher: ReturnType<typeof watch>): Promise<void> {
  await vi.waitFor(() => expect(watcher.text()).toMatch(/\$ $/), { timeout: 15_000, interval: 50 });
}

function execInspect(id: string) {
  return new Docker().getExec(id).inspect();
}

function shellsInContainer(): string {
  return execFileSync("docker", ["exec", sandbox.containerName, "ps", "-eo", "args"], { encoding: "utf8" });
}

describe("the session terminal in a real sandbox", () => {
  it("runs what is typed in /workspace as the sandbox user, and streams the output", async () => {
    const { created, terminalId } = await hub.open(sessionId, { cols: 80, rows: 24 }, alice);
    expect(created).toBe(true);
    const watcher = watch();
    await waitForPrompt(watcher);
    await hub.write(sessionId, "echo hi-$((40+2)) $(id -u) $PWD\r", alice);
    await vi.waitFor(() => expect(watcher.text()).toContain("hi-42 1000 /workspace"), {
      timeout: 10_000,
      interval: 50,
    });
    expect((await execInspect(terminalId)).ProcessConfig.tty).toBe(true);
    await watcher.stop();
  });

  it("a second open joins the terminal that is already open", async () => {
    const first = hub.current(sessionId);
    const again = await hub.open(sessionId, { cols: 80, rows: 24 }, bob);
    expect(again).toEqual({ terminalId: first, created: false });
  });

  it("resizing changes what `stty size` reports", async () => {
    const watcher = watch();
    await hub.resize(sessionId, { cols: 123, rows: 37 });
    await hub.write(sessionId, "stty size\r", alice);
    await vi.waitFor(() => expect(watcher.text()).toContain("37 123"), { timeout: 10_000, interval: 50 });
    await watcher.stop();
  });

  it("two watchers see the same bytes, the later one starting from the scrollback", async () => {
    const early = watch();
    await hub.write(sessionId, "echo early-$((1+1))\r", alice);
    await vi.waitFor(() => expect(early.text()).toContain("early-2"), { timeout: 10_000, interval: 50 });
    const late = watch();
    await hub.write(sessionId, "echo both-$((2+2))\r", bob);
    for (const watcher of [early, late]) {
      await vi.waitFor(() => expect(watcher.text()).toMatch(/both-4\r?\n.*\$ $/), {
        timeout: 10_000,
        interval: 50,
      });
    }
    // The late watcher got what it missed as the retained screen: early output included.
    expect(late.frames[0]?.frame.kind).toBe("reset");
    expect(late.text()).toContain("early-2");
    expect(late.text()).toBe(early.text());
    await early.stop();
    await late.stop();
  });

  it("a reconnecting watcher gets exactly what it missed, then live output", async () => {
    const first = watch();
    await hub.write(sessionId, "echo before-drop\r", alice);
    await vi.waitFor(() => expect(first.text()).toMatch(/before-drop\r?\n.*\$ $/), {
      timeout: 10_000,
      interval: 50,
    });
    const seen = first.text();
    const lastId = first.lastId();
    await first.stop();

    await hub.write(sessionId, "echo while-away-$((3*3))\r", alice);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const back = watch(lastId);
    await vi.waitFor(() => expect(back.text()).toContain("while-away-9"), { timeout: 10_000, interval: 50 });
    const replayed = back.frames[0]?.frame;
    expect(replayed?.kind).toBe("output");
    // Only the missed part came again: what was seen before the drop is not in it.
    expect(replayed?.kind === "output" && replayed.data).not.toContain("before-drop");
    // Seen before the drop + replayed = the whole screen, as a watcher arriving now gets it.
    await vi.waitFor(() => expect(back.text()).toMatch(/while-away-9\r?\n.*\$ $/), { timeout: 10_000 });
    const fresh = watch();
    await vi.waitFor(() => expect(fresh.frames.length).toBeGreaterThan(0));
    expect(seen + back.text()).toBe(fresh.text());
    await back.stop();
    await fresh.stop();
  });

  it("closing hangs the shell up for everyone, frees the exec and logs who did what", async () => {
    const terminalId = hub.current(sessionId);
    expect(terminalId).not.toBeNull();
    const watcher = watch();
    await vi.waitFor(() => expect(watcher.frames.length).toBeGreaterThan(0));
    expect(shellsInContainer()).toContain("arbor-term-");

    expect(await hub.close(sessionId, bob)).toBe(true);
    await vi.waitFor(() => expect(watcher.frames.at(-1)?.frame.kind).toBe("closed"), { timeout: 10_000 });
    expect(watcher.frames.at(-1)?.frame).toMatchObject({ kind: "closed", reason: "closed" });
    expect((await execInspect(terminalId as string)).Running).toBe(false);
    expect(shellsInContainer()).not.toContain("arbor-term-");
    expect(hub.current(sessionId)).toBeNull();
    await expect(hub.write(sessionId, "ls\r", alice)).rejects.toThrow(UserFacingError);
    await watcher.stop();

    const log = (await events.read(sessionId)).map((event) => event.body);
    expect(log.filter((body) => body.type.startsWith("terminal-"))).toEqual([
      { type: "terminal-opened", terminalId, by: alice },
      { type: "terminal-typed", terminalId, by: alice },
      { type: "terminal-typed", terminalId, by: bob },
      { type: "terminal-closed", terminalId, reason: "closed", by: bob, exitCode: expect.any(Number) },
    ]);
    // Nothing typed or printed is in the log.
    expect(JSON.stringify(log)).not.toContain("hi-42");
  });

  it("a shell that exits ends the terminal; opening again starts a fresh one", async () => {
    const { terminalId } = await hub.open(sessionId, { cols: 80, rows: 24 }, alice);
    const watcher = watch();
    await waitForPrompt(watcher);
    await hub.write(sessionId, "exit 3\r", alice);
    await vi.waitFor(() => expect(watcher.frames.at(-1)?.frame).toMatchObject({ kind: "closed" }), {
      timeout: 10_000,
    });
    expect(watcher.frames.at(-1)?.frame).toEqual({
      kind: "closed",
      terminalId,
      reason: "exited",
      exitCode: 3,
    });
    const next = await hub.open(sessionId, { cols: 80, rows: 24 }, alice);
    expect(next.created).toBe(true);
    expect(next.terminalId).not.toBe(terminalId);
    await vi.waitFor(() => expect(watcher.frames.at(-1)?.frame).toMatchObject({ kind: "reset" }));
    await watcher.stop();
    await hub.close(sessionId, alice);
  });

  it("refuses clearly when the session has no sandbox", async () => {
    const error = await hub.open(`${PREFIX}-none`, { cols: 80, rows: 24 }, alice).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserFacingError);
    expect((error as Error).message).toMatch(/no sandbox/);
  });
});

describe("a shell left behind by a server that stopped", () => {
  it("is hung up when the session's terminal is opened again", async () => {
    const orphan = await provider.openTerminal(sessionId, { cols: 80, rows: 24 });
    expect(shellsInContainer().match(/arbor-term-/g)).toHaveLength(1);
    // A new hub (a restarted server) knows nothing of it.
    const restarted = new TerminalHub({
      openTerminal: (id, size) => provider.openTerminal(id, size),
      record: async () => undefined,
      log: silent,
    });
    const { terminalId } = await restarted.open(sessionId, { cols: 80, rows: 24 }, alice);
    await vi.waitFor(() => expect(orphan.exited).toBe(true), { timeout: 10_000 });
    expect((await execInspect(orphan.id)).Running).toBe(false);
    expect((await execInspect(terminalId)).Running).toBe(true);
    expect(shellsInContainer().match(/arbor-term-/g)).toHaveLength(1);
    await restarted.closeAll();
  });
});
