import pg from "pg";
import { afterEach, beforeEach, expect, it } from "vitest";
import { driverStatements } from "@/server/db-driver";
import type { EventInput } from "@/server/domain/events/schema";
import { StaleLogError } from "@/server/events/log";
import { appendInOneStatement, prepareAppend } from "@/server/events/one-statement-append";
import { MissingProjectionRowError } from "@/server/events/projection-writer";
import { EventStore } from "@/server/events/store";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { seededPostgresDb } from "@/testing/harness/database-choice";

/**
 * The append as one statement on PostgreSQL (server/events/one-statement-append.ts): tried with a
 * guess of the session's last sequence number, it writes everything when the guess holds and nothing
 * at all — no row, no notification, no sequence taken — when it does not, or when a projection row it
 * updates is missing, so the transaction can take over and say why.
 */
let db: PrismaClient;
let url: string;
let cleanup: () => Promise<void>;
let sessionId: string;

beforeEach(async () => {
  ({ db, url, cleanup, sessionId } = await seededPostgresDb());
});
afterEach(async () => cleanup());

const message = (n: number): EventInput => ({
  type: "message-posted",
  messageId: `m${n}`,
  runId: null,
  role: "user",
  text: `message ${n}`,
});

async function tables() {
  const session = await db.session.findUniqueOrThrow({ where: { id: sessionId } });
  const events = await db.event.findMany({ where: { sessionId }, orderBy: { seq: "asc" } });
  const messages = await db.message.count({ where: { sessionId } });
  return { lastSeq: session.lastSeq, seqs: events.map((event) => event.seq), messages };
}

/** Notifications on `arbor_events`, and a probe sent after the statement: delivered in commit order. */
async function listen() {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const heard: string[] = [];
  client.on("notification", (note) => heard.push(note.payload ?? ""));
  await client.query("LISTEN arbor_events");
  return {
    async afterProbe(): Promise<string[]> {
      await db.$executeRawUnsafe(`SELECT pg_notify('arbor_events', 'probe')`);
      const deadline = Date.now() + 10_000;
      while (!heard.includes("probe") && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      await client.end();
      return heard.filter((payload) => payload !== "probe");
    },
  };
}

it("after a store's first append in a transaction, appends in one statement, numbered on from the log", async () => {
  const store = new EventStore(db);
  await store.append(sessionId, [message(1)]);
  await store.append(sessionId, [message(2), message(3)]);
  await store.append(sessionId, [message(4)]);
  expect(store.appendsBy).toEqual({ oneStatement: 2, transaction: 1 });
  expect(await tables()).toEqual({ lastSeq: 4, seqs: [1, 2, 3, 4], messages: 4 });
  // The caller's own expectation is a guess too: right, it takes one statement.
  await store.append(sessionId, [message(5)], { expectLastSeq: 4 });
  expect(store.appendsBy.oneStatement).toBe(3);
});

it("takes the transaction when another instance appended since, and numbers on with no gap", async () => {
  const first = new EventStore(db);
  const second = new EventStore(db);
  await first.append(sessionId, [message(1)]);
  await first.append(sessionId, [message(2)]);
  await second.append(sessionId, [message(3), message(4)]);
  // `first` still believes the log ends at 2.
  await first.append(sessionId, [message(5)]);
  expect(first.appendsBy).toEqual({ oneStatement: 1, transaction: 2 });
  expect(await tables()).toEqual({ lastSeq: 5, seqs: [1, 2, 3, 4, 5], messages: 5 });
  await first.append(sessionId, [message(6)]);
  expect(first.appendsBy.oneStatement).toBe(2);
  // A stale expectation is still refused, by the transaction that checks it.
  await expect(first.append(sessionId, [message(7)], { expectLastSeq: 2 })).rejects.toBeInstanceOf(
    StaleLogError,
  );
  expect((await tables()).lastSeq).toBe(6);
});

it("writes nothing, not even the notification, when its guess is stale; all of it when the guess holds", async () => {
  const sql = await driverStatements(db);
  const stale = await listen();
  expect(await appendInOneStatement(sql, prepareAppend(sessionId, [message(1)], 5, [], "instance-a"))).toBe(
    false,
  );
  expect(await stale.afterProbe()).toEqual([]);
  expect(await tables()).toEqual({ lastSeq: 0, seqs: [], messages: 0 });

  const right = await listen();
  expect(
    await appendInOneStatement(sql, prepareAppend(sessionId, [message(1), message(2)], 0, [], "instance-a")),
  ).toBe(true);
  expect((await right.afterProbe()).map((payload) => JSON.parse(payload))).toEqual([
    { instance: "instance-a", sessionId, firstSeq: 1, lastSeq: 2 },
  ]);
  expect(await tables()).toEqual({ lastSeq: 2, seqs: [1, 2], messages: 2 });
});

it("rolls all of it back when an update names a projection row that is not there", async () => {
  const orphan: EventInput = {
    type: "cycle-reflected",
    runId: "r1",
    intentionId: "i1",
    cycleId: "no-such-cycle",
    reflection: "fine",
  };
  const sql = await driverStatements(db);
  const listening = await listen();
  expect(
    await appendInOneStatement(sql, prepareAppend(sessionId, [message(1), orphan], 0, [], "instance-a")),
  ).toBe(false);
  expect(await listening.afterProbe()).toEqual([]);
  expect(await tables()).toEqual({ lastSeq: 0, seqs: [], messages: 0 });
  // Through the store: the statement fails, and the transaction says why.
  const store = new EventStore(db);
  await store.append(sessionId, [message(1)]);
  await expect(store.append(sessionId, [message(2), orphan])).rejects.toBeInstanceOf(
    MissingProjectionRowError,
  );
  expect(store.appendsBy).toEqual({ oneStatement: 0, transaction: 1 });
  expect(await tables()).toEqual({ lastSeq: 1, seqs: [1], messages: 1 });
});
