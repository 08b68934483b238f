import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { captureRouter } from "@/server/api/routers/capture";
import { foldEvents } from "@/server/domain/session/fold";
import { EventStore } from "@/server/events/store";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { createTestDb, seedSession } from "@/testing/db/test-db";
import { verifiedRun, waitingRun } from "@/testing/events/capture-events";
import { exportSession, parseSessionExport, type RunSummary, summariseTree } from "./export";
import { IMPORTED_UNFINISHED_REASON, importSession } from "./import";
import { readAllEvents } from "./read";

// The routers reach the event store through the app context; here it is the test database's store,
// so the procedures run for real without an orchestrator, a sandbox or a model.
const app = vi.hoisted(() => ({ store: null as unknown }));
vi.mock("@/server/app-context", () => ({ appContext: () => app }));

let db: PrismaClient;
let cleanup: () => Promise<void>;
let store: EventStore;

beforeEach(async () => {
  ({ db, cleanup } = await createTestDb());
  store = new EventStore(db);
  app.store = store;
});
afterEach(async () => cleanup());

/** A tree without ids: what must survive an import unchanged. */
function withoutIds(runs: RunSummary[]): unknown {
  return JSON.parse(JSON.stringify(runs, (key, value: unknown) => (key === "id" ? undefined : value)));
}

async function exportedSource() {
  const source = await seedSession(db, "source");
  await store.append(source.session.id, verifiedRun);
  await store.append(source.session.id, waitingRun);
  // A small page size proves the export reads the whole log, not just the first page.
  const events = await readAllEvents({ read: (id, after) => store.read(id, after, 3) }, source.session.id);
  const doc = exportSession(
    {
      session: { id: source.session.id, title: "two runs", branch: source.session.branch, projectName: "p" },
      exportedAt: new Date().toISOString(),
    },
    events,
  );
  return { source, doc, file: JSON.stringify(doc) };
}

describe("session capture on a real SQLite file", () => {
  it("exports a session and imports it twice into another project, projections and all", async () => {
    const { source, doc, file } = await exportedSource();
    expect(doc.events).toHaveLength(verifiedRun.length + waitingRun.length);
    const target = await seedSession(db, "target");
    const parsed = parseSessionExport(JSON.parse(file));
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));

    const deps = { db, store };
    const into = { projectId: target.project.id, userId: target.user.id };
    const first = await importSession(deps, into, parsed.value);
    const second = await importSession(deps, into, parsed.value);
    expect(first.sessionId).not.toBe(second.sessionId);

    const sourceRunIds = new Set(
      (await db.run.findMany({ where: { sessionId: source.session.id } })).map((r) => r.id),
    );
    const seenIntentionIds = new Set<string>();
    for (const { sessionId } of [first, second]) {
      const session = await db.session.findUniqueOrThrow({ where: { id: sessionId } });
      expect(session).toMatchObject({
        projectId: target.project.id,
        createdById: target.user.id,
        title: "Imported: two runs",
        branch: `arbor/session-${sessionId}`,
        lastSeq: doc.events.length + 1,
      });

      const runs = await db.run.findMany({ where: { sessionId }, orderBy: { startedAt: "asc" } });
      expect(runs.map((run) => [run.task, run.status, run.reason])).toEqual([
        ["run `a` and run `b`", "VERIFIED", "all children verified"],
        ["run `c` and `d`", "STOPPED", IMPORTED_UNFINISHED_REASON],
      ]);
      for (const run of runs) expect(sourceRunIds.has(run.id)).toBe(false);

      const runIds = runs.map((run) => run.id);
      const intentions = await db.intention.findMany({
        where: { runId: { in: runIds } },
        orderBy: [{ depth: "asc" }, { position: "asc" }, { what: "asc" }],
      });
      expect(intentions.map((row) => [row.what, row.status, row.depth])).toEqual([
        ["run `a` and run `b`", "VERIFIED", 0],
        ["run `c` and `d`", "ACTIVE", 0],
        ["run `a`", "VERIFIED", 1],
        ["run `b`", "VERIFIED", 1],
      ]);
      const root = intentions[0];
      for (const child of intentions.filter((row) => row.depth === 1)) expect(child.parentId).toBe(root?.id);
      for (const row of intentions) {
        expect(seenIntentionIds.has(row.id)).toBe(false);
        seenIntentionIds.add(row.id);
      }

      const cycles = await db.cycle.findMany({
        where: { runId: { in: runIds } },
        orderBy: { startedAt: "asc" },
      });
      expect(cycles.map((row) => [row.exitCode, row.judgment, row.reflection])).toEqual([
        [1, "FAILURE", "try again"],
        [0, "SUCCESS", null],
        [0, "SUCCESS", null],
      ]);
      expect(new Set(cycles.map((row) => row.intentionId)).size).toBe(2);

      const approvals = await db.approval.findMany({ where: { sessionId }, orderBy: { createdAt: "asc" } });
      expect(approvals.map((row) => [row.status, row.runId])).toEqual([
        ["APPROVED", runIds[0]],
        ["PENDING", runIds[1]],
      ]);
      const messages = await db.message.findMany({ where: { sessionId } });
      expect(messages.map((row) => row.text).sort()).toEqual([
        "Verified",
        "run `a` and run `b`",
        "run `c` and `d`",
      ]);

      // The imported log folds to the same tree as the file's, ids aside.
      const imported = summariseTree(foldEvents(await readAllEvents(store, sessionId)));
      const expected = doc.tree.runs.map((run) =>
        run.status === "RUNNING"
          ? { ...run, status: "STOPPED" as const, reason: IMPORTED_UNFINISHED_REASON }
          : run,
      );
      expect(withoutIds(imported.runs)).toEqual(withoutIds(expected));
    }
    // The source is untouched.
    expect((await db.session.findUniqueOrThrow({ where: { id: source.session.id } })).lastSeq).toBe(
      doc.events.length,
    );
  });

  it("leaves no session behind when the log cannot be written", async () => {
    const { doc } = await exportedSource();
    const target = await seedSession(db, "target");
    const failing = { append: () => Promise.reject(new Error("disk full")) };
    await expect(
      importSession({ db, store: failing }, { projectId: target.project.id, userId: target.user.id }, doc),
    ).rejects.toThrow("disk full");
    expect(await db.session.count({ where: { projectId: target.project.id } })).toBe(1);
  });
});

describe("capture router", () => {
  it("serves export, import, training data and memory to team members only", async () => {
    const { source, file } = await exportedSource();
    const caller = captureRouter.createCaller({ db, user: source.user });
    const sessionId = source.session.id;

    const doc = await caller.exportSession({ sessionId });
    expect(doc.events.length).toBe(verifiedRun.length + waitingRun.length);
    expect((await caller.trainingData({ sessionId })).trim().split("\n")).toHaveLength(3);
    const memory = await caller.projectMemory({ projectId: source.project.id });
    // Every fixture command is `true`: remembered once, with the newest intention it verified.
    expect(memory.map((entry) => [entry.kind, entry.summary])).toEqual([
      ["command", "true"],
      ["decision", "run `a` and run `b`"],
    ]);

    const { sessionId: importedId } = await caller.importSession({ projectId: source.project.id, file });
    expect(await db.run.count({ where: { sessionId: importedId } })).toBe(2);

    const stranger = await seedSession(db, "stranger");
    const outsider = captureRouter.createCaller({ db, user: stranger.user });
    await expect(outsider.exportSession({ sessionId })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(outsider.trainingData({ sessionId })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(outsider.projectMemory({ projectId: source.project.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(outsider.importSession({ projectId: source.project.id, file })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    const anonymous = captureRouter.createCaller({ db, user: null });
    await expect(anonymous.exportSession({ sessionId })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("answers a bad file with BAD_REQUEST listing the problems, and writes nothing", async () => {
    const target = await seedSession(db, "target");
    const caller = captureRouter.createCaller({ db, user: target.user });
    const projectId = target.project.id;

    await expect(caller.importSession({ projectId, file: "{ not json" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining("This file is not JSON"),
    });
    const wrong = JSON.stringify({ format: "arbor-session", version: 1, events: [{ seq: 0 }] });
    const error = await caller.importSession({ projectId, file: wrong }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "BAD_REQUEST" });
    const message = error instanceof Error ? error.message : "";
    for (const path of ["exportedAt", "session", "events[0].seq", "events[0].body", "tree"])
      expect(message).toContain(`• ${path}:`);
    expect(await db.session.count({ where: { projectId } })).toBe(1);
  });
});
