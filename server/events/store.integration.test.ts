import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { EventInput, StoredEvent } from "@/server/domain/events/schema";
import { foldEvents } from "@/server/domain/session/fold";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { createTestDbOn, seedSession } from "@/testing/db/test-db";
import { cycle, decomposedRun } from "@/testing/events/events";
import { testDatabaseName, testPostgresUrl } from "@/testing/harness/database-choice";
import { followEvents } from "./follow";
import { EventStore } from "./store";

let db: PrismaClient;
let cleanup: () => Promise<void>;
let sessionId: string;
let store: EventStore;

beforeEach(async () => {
  ({ db, cleanup } = await createTestDbOn(testPostgresUrl()));
  sessionId = (await seedSession(db)).session.id;
  store = new EventStore(db, () => ["sk-test-secret-value"]);
});
afterEach(async () => cleanup());

const message = (i: number): EventInput => ({
  type: "message-posted",
  messageId: `m${i}`,
  runId: null,
  role: "user",
  text: `hello ${i}`,
});

describe(`EventStore on a real ${testDatabaseName()} database`, () => {
  it("numbers concurrent appends 1..N with no gap and no duplicate", async () => {
    await Promise.all(Array.from({ length: 40 }, (_, i) => store.append(sessionId, [message(i)])));
    const events = await store.read(sessionId);
    expect(events.map((event) => event.seq)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect((await db.session.findUniqueOrThrow({ where: { id: sessionId } })).lastSeq).toBe(40);
  });

  it("writes projections that agree with the fold of the same events", async () => {
    await store.append(sessionId, [
      ...decomposedRun(),
      ...cycle("run-1", "c1", "cy1", 0),
      ...cycle("run-1", "c2", "cy2", 7),
    ]);
    await store.append(sessionId, [
      { type: "run-ended", runId: "run-1", status: "FAILED", reason: "child 2 failed" },
    ]);
    const view = foldEvents(await store.read(sessionId));

    const intentions = await db.intention.findMany({ orderBy: [{ depth: "asc" }, { position: "asc" }] });
    expect(intentions.map((row) => [row.id, row.status])).toEqual(
      ["root", "c1", "c2"].map((id) => [id, view.intentions[id]?.status]),
    );
    const cycles = await db.cycle.findMany({ orderBy: { intentionId: "asc" } });
    expect(cycles.map((row) => [row.id, row.exitCode, row.judgment])).toEqual([
      ["cy1", 0, "SUCCESS"],
      ["cy2", 7, "FAILURE"],
    ]);
    const run = await db.run.findUniqueOrThrow({ where: { id: "run-1" } });
    expect([run.status, run.reason]).toEqual([view.runs["run-1"]?.status, view.runs["run-1"]?.reason]);
    const approval = await db.approval.findUniqueOrThrow({ where: { id: "ap1" } });
    expect(approval.status).toBe("APPROVED");
  });

  it("rolls back the whole append when one event is invalid, leaving the log untouched", async () => {
    await store.append(sessionId, [message(1)]);
    const bad = {
      type: "intention-status-changed",
      runId: "r",
      intentionId: "missing",
      status: "ACTIVE",
      reason: null,
    } as const;
    await expect(store.append(sessionId, [message(2), bad])).rejects.toThrow();
    expect((await store.read(sessionId)).map((event) => event.seq)).toEqual([1]);
    await store.append(sessionId, [message(3)]);
    expect((await store.read(sessionId)).map((event) => event.seq)).toEqual([1, 2]);
  });

  it("reads a whole log at once exactly as page by page, capped, with schema defaults filled in for old events", async () => {
    await store.append(sessionId, [...decomposedRun(), ...cycle("run-1", "c1", "cy1", 0)]);
    // An event written before a field existed: the store's own row, with `reasoning` missing.
    const started = (await store.read(sessionId))[1];
    expect(started?.body.type).toBe("run-started");
    const old = { ...(started?.body as Record<string, unknown>) };
    delete old.reasoning;
    await db.event.update({
      where: { sessionId_seq: { sessionId, seq: 2 } },
      data: { payload: JSON.stringify(old) },
    });
    const paged = await store.read(sessionId);
    const all = await store.readAll(sessionId, 1_000);
    expect(all).toEqual(paged);
    // The JSON the replay gets is the same log, verbatim types included, exactly as parsed.
    expect(JSON.parse(await store.readAllJson(sessionId, 1_000))).toEqual(paged);
    expect(all[1]?.body).toMatchObject({ type: "run-started", reasoning: "off" });
    expect((await store.readAll(sessionId, 2)).map((event) => event.seq)).toEqual([1, 2]);
  });

  it("splits a batch whose rows exceed both databases' bound-value limits and stores all of it", async () => {
    // 6 values per message row and per event row: 10 923 rows are 65 538 values, one over
    // PostgreSQL's 65 535 (and SQLite's 32 766) — one statement would be refused on both.
    const size = 10_923;
    const appended = await store.append(
      sessionId,
      Array.from({ length: size }, (_, i) => message(i)),
    );
    expect(appended.at(-1)?.seq).toBe(size);
    expect(await db.event.count({ where: { sessionId } })).toBe(size);
    expect(await db.message.count({ where: { sessionId } })).toBe(size);
    expect((await db.event.findFirstOrThrow({ where: { sessionId, seq: size } })).type).toBe(
      "message-posted",
    );
  });

  it("stores quotes, backslashes, NULLs, unicode and a text at the size limit exactly as given", async () => {
    // PostgreSQL inserts a batch's rows as one JSON document (bulk-insert.ts): every value must come
    // back as the driver's bound parameters stored it. A lone surrogate is no valid UTF-8: in a column
    // each database stores replacement characters for it (it must not fail the append); the event's
    // JSON payload keeps it escaped.
    const texts = [
      `it's "quoted" \\ back\\slash \\u0000 {"json":[1,null]} $1 ? ::json`,
      "é 日本語 😀 \u200b tab\tnew\nline",
      "lone \ud800 surrogate",
      `${"ü😀".repeat(66_666)}ab`, // 200 000 UTF-16 units, the schema's limit
    ];
    const bodies: EventInput[] = texts.map((text, i) => ({
      type: "message-posted",
      messageId: `m${i}`,
      runId: i === 1 ? "r'1" : null,
      role: "user",
      text,
    }));
    const stored = await store.append(sessionId, [...bodies, message(9)]);
    expect((await store.read(sessionId)).map((event) => event.body)).toEqual(stored.map((e) => e.body));
    const rows = await db.message.findMany({ where: { sessionId }, orderBy: { id: "asc" } });
    const text = rows.map((row) => row.text);
    expect(text[2]).toMatch(/^lone \uFFFD+ surrogate$/);
    // Compared as booleans first: a failure must not print 200 000 characters.
    expect(text.map((value, i) => value === [...texts, "hello 9"][i])).toEqual([
      true,
      true,
      false,
      true,
      true,
    ]);
    expect(rows.map((row) => [row.runId, row.createdAt.toISOString()])).toEqual(
      [null, "r'1", null, null, null].map((runId) => [runId, stored[0]?.at]),
    );
  });

  it("stores array-literal look-alikes exactly when no value needs more than JSON's quote escapes", async () => {
    // On PostgreSQL each column goes as one array literal taken from its JSON text when no value has
    // a newline, control character or lone surrogate (bulk-insert.ts): quotes, backslashes, braces,
    // commas and the words NULL/null must still arrive as written, and dates to the millisecond.
    const texts = [
      `say "hi", {a,b} \\ end\\`,
      "NULL",
      "null",
      "",
      ` padded , "x" `,
      `${"ü😀".repeat(66_666)}ab`, // 200 000 UTF-16 units, the schema's limit
    ];
    const bodies: EventInput[] = texts.map((text, i) => ({
      type: "message-posted",
      messageId: `m${i}`,
      runId: i % 2 === 0 ? null : `r"${i}\\`,
      role: "user",
      text,
    }));
    const stored = await store.append(sessionId, bodies);
    expect((await store.read(sessionId)).map((event) => event.body)).toEqual(bodies);
    const rows = await db.message.findMany({ where: { sessionId }, orderBy: { id: "asc" } });
    // Compared as booleans first: a failure must not print 200 000 characters.
    expect(rows.map((row, i) => row.text === texts[i])).toEqual(texts.map(() => true));
    expect(rows.map((row) => row.runId)).toEqual(bodies.map((body) => (body as { runId: unknown }).runId));
    const events = await db.event.findMany({ where: { sessionId }, orderBy: { seq: "asc" } });
    expect(events.map((event) => [event.seq, event.createdAt.toISOString()])).toEqual(
      stored.map((event) => [event.seq, event.at]),
    );
    expect(new Set(rows.map((row) => row.createdAt.getTime()))).toEqual(
      new Set([Date.parse(stored[0]?.at ?? "")]),
    );
  });

  it("stores its dates in the same text Prisma's own writes use", async () => {
    await store.append(sessionId, [message(1), message(2)]);
    // The seeded session was written by Prisma; the event and message rows by the append's raw statements.
    const text = (sql: string) =>
      db.$queryRawUnsafe<{ at: string }[]>(sql).then((rows) => rows.map((row) => row.at));
    // Digits and the fraction's length aside (PostgreSQL's text of a timestamp drops trailing zeros).
    const shape = (at: string) => at.replace(/\.\d+/, ".f").replace(/\d/g, "0");
    const [prismaWrote] = await text(`SELECT CAST("createdAt" AS TEXT) AS "at" FROM "Session"`);
    expect(prismaWrote).toBeDefined();
    const appended = [
      ...(await text(`SELECT CAST("createdAt" AS TEXT) AS "at" FROM "Event"`)),
      ...(await text(`SELECT CAST("createdAt" AS TEXT) AS "at" FROM "Message"`)),
    ];
    expect(appended).toHaveLength(4);
    for (const at of appended) expect(shape(at)).toBe(shape(prismaWrote ?? ""));
  });

  it("redacts known secrets before they reach the log", async () => {
    await store.append(sessionId, [{ ...message(1), text: "key is sk-test-secret-value ok" } as EventInput]);
    const [event] = await store.read(sessionId);
    expect(JSON.stringify(event)).not.toContain("sk-test-secret-value");
    expect(event?.body).toMatchObject({ text: "key is [redacted] ok" });
  });
});

describe("followEvents", () => {
  it("delivers the backlog then live events, in order, exactly once, while appends race the catch-up", async () => {
    for (let i = 0; i < 25; i++) await store.append(sessionId, [message(i)]);
    const controller = new AbortController();
    const seen: StoredEvent[] = [];
    const reader = (async () => {
      for await (const event of followEvents(store, sessionId, 10, controller.signal)) {
        seen.push(event);
        if (event.seq === 80) controller.abort();
      }
    })();
    for (let i = 25; i < 80; i++) await store.append(sessionId, [message(i)]);
    await reader;
    expect(seen.map((event) => event.seq)).toEqual(Array.from({ length: 70 }, (_, i) => i + 11));
  });

  it("resumes after a disconnect from the last sequence seen", async () => {
    for (let i = 0; i < 5; i++) await store.append(sessionId, [message(i)]);
    const first = new AbortController();
    const firstSeen: number[] = [];
    for await (const event of followEvents(store, sessionId, 0, first.signal)) {
      firstSeen.push(event.seq);
      if (event.seq === 3) first.abort();
    }
    await store.append(sessionId, [message(5), message(6)]);
    const second = new AbortController();
    const secondSeen: number[] = [];
    for await (const event of followEvents(store, sessionId, firstSeen.at(-1) ?? 0, second.signal)) {
      secondSeen.push(event.seq);
      if (event.seq === 7) second.abort();
    }
    expect([...firstSeen, ...secondSeen]).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });
});
