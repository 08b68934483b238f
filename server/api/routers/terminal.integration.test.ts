import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { terminalRouter } from "@/server/api/routers/terminal";
import type { TerminalFrame } from "@/server/domain/vocabulary/terminal";
import { EventStore } from "@/server/events/store";
import type { PrismaClient } from "@/server/generated/prisma/client";
import type { DockerSandboxProvider } from "@/server/sandbox/docker-provider";
import type { Sandbox } from "@/server/sandbox/types";
import { TerminalHub } from "@/server/terminal/hub";
import { createTestDb, seedSession } from "@/testing/db/test-db";
import { cleanUp, makeBareRepo, silent, testProvider } from "@/testing/sandbox/docker";

/** The terminal procedures with a real database, a real sandbox and the real hub behind them. */
const app = vi.hoisted(() => ({ store: null as unknown, terminals: null as unknown }));
vi.mock("@/server/app-context", () => ({ appContext: () => app }));

let db: PrismaClient;
let cleanupDb: () => Promise<void>;
let provider: DockerSandboxProvider;
let sandbox: Sandbox;
let hub: TerminalHub;
let seeded: Awaited<ReturnType<typeof seedSession>>;

beforeAll(async () => {
  ({ db, cleanup: cleanupDb } = await createTestDb());
  seeded = await seedSession(db, "terminal");
  provider = testProvider("term-rpc");
  sandbox = await provider.create({ sessionId: seeded.session.id, repoPath: makeBareRepo(true) });
  const store = new EventStore(db);
  hub = new TerminalHub({
    openTerminal: (id, size) => provider.openTerminal(id, size),
    record: (id, body) => store.append(id, [body]),
    log: silent,
  });
  app.store = store;
  app.terminals = hub;
}, 600_000);

afterAll(async () => {
  await hub?.closeAll();
  await sandbox?.dispose();
  await cleanUp(provider);
  await cleanupDb?.();
});

describe("terminal procedures", () => {
  it("let a member of the project's team open, type, watch and close; the log says who", async () => {
    const sessionId = seeded.session.id;
    const caller = terminalRouter.createCaller({ db, user: seeded.user });
    const opened = await caller.open({ sessionId, size: { cols: 100, rows: 30 } });
    expect(opened.created).toBe(true);

    const frames: TerminalFrame[] = [];
    const stream = await caller.output({ sessionId, lastEventId: null });
    // Each item is tRPC's tracked tuple [id, frame]; the loop ends at the closing frame.
    const reading = (async () => {
      for await (const item of stream) {
        const [, frame] = item as unknown as [string, TerminalFrame];
        frames.push(frame);
        if (frame.kind === "closed") break;
      }
    })();
    const screen = () =>
      frames.map((frame) => (frame.kind === "reset" || frame.kind === "output" ? frame.data : "")).join("");
    await vi.waitFor(() => expect(screen()).toMatch(/\$ $/), { timeout: 15_000, interval: 50 });

    await caller.write({ sessionId, data: "echo via-trpc-$((5*5)); stty size\r" });
    await vi.waitFor(() => expect(screen()).toMatch(/via-trpc-25\r?\n30 100/), {
      timeout: 10_000,
      interval: 50,
    });

    expect(await caller.close({ sessionId })).toEqual({ closed: true });
    await reading;
    expect(frames.at(-1)).toMatchObject({ kind: "closed", reason: "closed" });

    await expect(caller.write({ sessionId, data: "ls\r" })).rejects.toMatchObject({
      code: "PRECONDITION_FAILED",
      message: expect.stringMatching(/not open/),
    });
    const logged = await db.event.findMany({
      where: { sessionId, type: { startsWith: "terminal-" } },
      orderBy: { seq: "asc" },
    });
    expect(logged.map((row) => row.type)).toEqual(["terminal-opened", "terminal-typed", "terminal-closed"]);
    expect(JSON.parse(logged[0]?.payload ?? "{}").by).toEqual({
      userId: seeded.user.id,
      name: seeded.user.name,
    });
    expect(logged.map((row) => row.payload).join("")).not.toContain("via-trpc");
  });

  it("refuse anyone outside the team as if the session did not exist, and anonymous callers", async () => {
    const sessionId = seeded.session.id;
    const stranger = await seedSession(db, "stranger");
    const outsider = terminalRouter.createCaller({ db, user: stranger.user });
    const size = { cols: 80, rows: 24 };
    await expect(outsider.open({ sessionId, size })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(outsider.write({ sessionId, data: "x" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(outsider.resize({ sessionId, size })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(outsider.close({ sessionId })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(outsider.output({ sessionId, lastEventId: null })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    const anonymous = terminalRouter.createCaller({ db, user: null });
    await expect(anonymous.open({ sessionId, size })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(anonymous.output({ sessionId, lastEventId: null })).rejects.toMatchObject({
      code: "UNAUTHORIZED",
    });
    expect(hub.current(sessionId)).toBeNull();
  });

  it("let a viewer watch but not open, type, resize or close", async () => {
    const sessionId = seeded.session.id;
    const watcher = await db.user.create({ data: { email: "term-viewer@example.com", name: "Viewer" } });
    await db.membership.create({ data: { userId: watcher.id, teamId: seeded.team.id, role: "viewer" } });
    const viewer = terminalRouter.createCaller({ db, user: watcher });
    const size = { cols: 80, rows: 24 };
    for (const refused of [
      () => viewer.open({ sessionId, size }),
      () => viewer.write({ sessionId, data: "x" }),
      () => viewer.resize({ sessionId, size }),
      () => viewer.close({ sessionId }),
    ]) {
      await expect(refused()).rejects.toMatchObject({
        code: "FORBIDDEN",
        message: expect.stringContaining("Viewers can watch but not"),
      });
    }
    expect(hub.current(sessionId)).toBeNull();
    // Watching is allowed: the first frame says no terminal is open.
    const stream = await viewer.output({ sessionId, lastEventId: null });
    const iterator = (stream as AsyncIterable<[string, TerminalFrame]>)[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.value?.[1]).toEqual({ kind: "idle" });
    await iterator.return?.();
  });

  it("reject bad input with a clear error", async () => {
    const sessionId = seeded.session.id;
    const caller = terminalRouter.createCaller({ db, user: seeded.user });
    await expect(caller.open({ sessionId, size: { cols: 0, rows: 24 } })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    await expect(caller.write({ sessionId, data: "x".repeat(70_000) })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining("Paste at most"),
    });
    await expect(caller.resize({ sessionId, size: { cols: 80, rows: 24 } })).rejects.toMatchObject({
      code: "PRECONDITION_FAILED",
    });
  });
});
