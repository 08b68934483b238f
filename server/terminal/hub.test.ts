import pino from "pino";
import { describe, expect, it, vi } from "vitest";
import { UserFacingError } from "@/server/domain/errors";
import type { EventInput } from "@/server/domain/events/schema";
import type { TerminalFrame } from "@/server/domain/vocabulary/terminal";
import type { SandboxTerminal, TerminalSize } from "@/server/sandbox/types";
import { SandboxUnavailableError } from "@/server/sandbox/types";
import { parseFrameId, TerminalHub, type TrackedFrame } from "./hub";

/** A pty stand-in: what the hub writes is recorded; `emit` plays shell output; `close` exits it. */
class FakePty implements SandboxTerminal {
  readonly written: string[] = [];
  readonly sizes: TerminalSize[] = [];
  exited = false;
  private data: ((chunk: Buffer) => void)[] = [];
  private exits: ((code: number | null) => void)[] = [];
  constructor(readonly id: string) {}
  onData(listener: (chunk: Buffer) => void) {
    this.data.push(listener);
  }
  onExit(listener: (code: number | null) => void) {
    this.exits.push(listener);
  }
  write(data: string) {
    this.written.push(data);
  }
  async resize(size: TerminalSize) {
    this.sizes.push(size);
  }
  async close() {
    this.exit(129);
  }
  emit(text: string | Buffer) {
    for (const listener of this.data) listener(typeof text === "string" ? Buffer.from(text) : text);
  }
  exit(code: number | null) {
    if (this.exited) return;
    this.exited = true;
    for (const listener of this.exits) listener(code);
  }
}

const alice = { userId: "u1", name: "Alice" };
const bob = { userId: "u2", name: "Bob" };
const size = { cols: 80, rows: 24 };

function setup(options: { idleCloseMs?: number; clock?: () => number } = {}) {
  const ptys: FakePty[] = [];
  const recorded: EventInput[] = [];
  const hub = new TerminalHub({
    openTerminal: async () => {
      const pty = new FakePty(`t${ptys.length + 1}`);
      ptys.push(pty);
      return pty;
    },
    record: async (_sessionId, body) => {
      recorded.push(body);
    },
    log: pino({ level: "silent" }),
    ...options,
  });
  return { hub, ptys, recorded };
}

function follow(hub: TerminalHub, lastId: string | null = null) {
  const controller = new AbortController();
  const frames: TrackedFrame[] = [];
  const done = (async () => {
    for await (const frame of hub.follow("s1", lastId, controller.signal)) frames.push(frame);
  })();
  return {
    frames,
    kinds: () => frames.map((f) => f.frame.kind),
    stop: async () => {
      controller.abort();
      await done;
    },
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("TerminalHub", () => {
  it("keeps one terminal per session, however many open it", async () => {
    const { hub, ptys } = setup();
    const [a, b] = await Promise.all([hub.open("s1", size, alice), hub.open("s1", size, bob)]);
    expect(ptys).toHaveLength(1);
    expect([a.created, b.created].sort()).toEqual([false, true]);
    expect(a.terminalId).toBe(b.terminalId);
  });

  it("decodes UTF-8 split across chunks before anyone sees it", async () => {
    const { hub, ptys } = setup();
    await hub.open("s1", size, alice);
    const watcher = follow(hub);
    await settle();
    const bytes = Buffer.from("é✓");
    ptys[0]?.emit(bytes.subarray(0, 1));
    ptys[0]?.emit(bytes.subarray(1));
    await settle();
    const text = watcher.frames.map((f) => ("data" in f.frame ? f.frame.data : "")).join("");
    expect(text).toBe("é✓");
    await watcher.stop();
  });

  it("tells an idle watcher once, then starts it with a reset when a terminal opens", async () => {
    const { hub, ptys } = setup();
    const watcher = follow(hub);
    await settle();
    expect(watcher.frames).toEqual([{ id: "idle", frame: { kind: "idle" } }]);
    await hub.open("s1", size, alice);
    ptys[0]?.emit("$ ");
    await settle();
    expect(watcher.kinds()).toEqual(["idle", "reset", "output"]);
    await watcher.stop();
  });

  it("resumes a watcher after the id it saw last: only the missed output, or a reset if it is gone", async () => {
    const { hub, ptys } = setup();
    await hub.open("s1", size, alice);
    ptys[0]?.emit("one\n");
    const first = follow(hub);
    await settle();
    const lastId = first.frames.at(-1)?.id ?? null;
    await first.stop();
    ptys[0]?.emit("two\n");
    const resumed = follow(hub, lastId);
    await settle();
    expect(resumed.frames.map((f) => f.frame)).toEqual([{ kind: "output", terminalId: "t1", data: "two\n" }]);
    await resumed.stop();
    // An id from another terminal (a restart, a new shell) starts over with the retained screen.
    const stranger = follow(hub, "t9:4");
    await settle();
    expect(stranger.frames[0]?.frame).toEqual({ kind: "reset", terminalId: "t1", data: "one\ntwo\n" });
    await stranger.stop();
  });

  it("records who typed at most once a minute each, never what", async () => {
    let now = 0;
    const { hub, ptys, recorded } = setup({ clock: () => now });
    await hub.open("s1", size, alice);
    await hub.write("s1", "secret-password\r", alice);
    await hub.write("s1", "ls\r", alice);
    await hub.write("s1", "pwd\r", bob);
    now = 61_000;
    await hub.write("s1", "id\r", alice);
    expect(ptys[0]?.written).toEqual(["secret-password\r", "ls\r", "pwd\r", "id\r"]);
    const who = (body: EventInput) =>
      "by" in body && typeof body.by === "object" && body.by !== null ? body.by.name : null;
    expect(recorded.map((body) => [body.type, who(body)])).toEqual([
      ["terminal-opened", "Alice"],
      ["terminal-typed", "Alice"],
      ["terminal-typed", "Bob"],
      ["terminal-typed", "Alice"],
    ]);
    expect(JSON.stringify(recorded)).not.toContain("secret-password");
  });

  it("closes a terminal nobody has watched for the idle time, and logs why", async () => {
    vi.useFakeTimers();
    try {
      const { hub, ptys, recorded } = setup({ idleCloseMs: 1_000 });
      await hub.open("s1", size, alice);
      const watcher = follow(hub);
      await vi.advanceTimersByTimeAsync(5_000);
      expect(ptys[0]?.exited).toBe(false);
      await watcher.stop();
      await vi.advanceTimersByTimeAsync(999);
      expect(ptys[0]?.exited).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(ptys[0]?.exited).toBe(true);
      expect(hub.current("s1")).toBeNull();
      expect(recorded.at(-1)).toEqual({
        type: "terminal-closed",
        terminalId: "t1",
        reason: "idle",
        by: null,
        exitCode: 129,
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it("ends every watcher with the closing frame and who closed it goes to the log", async () => {
    const { hub, recorded } = setup();
    await hub.open("s1", size, alice);
    const watchers = [follow(hub), follow(hub)];
    await settle();
    expect(await hub.close("s1", bob)).toBe(true);
    await settle();
    for (const watcher of watchers) {
      expect(watcher.frames.at(-1)).toEqual({
        id: "t1:closed",
        frame: { kind: "closed", terminalId: "t1", reason: "closed", exitCode: 129 } satisfies TerminalFrame,
      });
      await watcher.stop();
    }
    expect(recorded.at(-1)).toMatchObject({ type: "terminal-closed", reason: "closed", by: bob });
    expect(await hub.close("s1", bob)).toBe(false);
  });

  it("turns sandbox failures into messages a person can act on", async () => {
    const hub = new TerminalHub({
      openTerminal: async () => {
        throw new SandboxUnavailableError("Docker engine not reachable at /var/run/docker.sock.");
      },
      record: async () => undefined,
      log: pino({ level: "silent" }),
    });
    const error = await hub.open("s1", size, alice).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UserFacingError);
    expect(error).toMatchObject({ code: "PRECONDITION_FAILED", message: expect.stringContaining("Docker") });
    await expect(hub.resize("s1", size)).rejects.toThrow("not open");
  });
});

describe("parseFrameId", () => {
  it("reads the ids the hub hands out and nothing else", () => {
    expect(parseFrameId(null)).toBeNull();
    expect(parseFrameId("idle")).toEqual({ kind: "idle" });
    expect(parseFrameId("abc:closed")).toEqual({ kind: "idle" });
    expect(parseFrameId("abc:42")).toEqual({ kind: "at", terminalId: "abc", offset: 42 });
    expect(parseFrameId("abc:-1")).toBeNull();
    expect(parseFrameId("a b:1")).toBeNull();
    expect(parseFrameId("abc:1e5")).toBeNull();
  });
});
