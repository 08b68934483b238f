/**
 * Issue #19's append benchmark: the EventStore's append (sequence taken under the session's lock,
 * event row and projection in one transaction) on SQLite and on PostgreSQL, in the same run. Goal:
 * >= 20k events/s batched on each.
 *
 * - single: one `message-posted` per append, each awaited before the next (a run's usual step);
 *   throughput and p95 acknowledgement (append call to its promise resolving).
 * - batched: BENCH_BATCH events per append (a decomposition, a replayed import); throughput and p95
 *   acknowledgement of a whole batch.
 *
 * - batched (1000): the same with LARGE_BATCH events per append, to show the cost per transaction.
 * - floor: the same batches of 200 written by the database driver itself (better-sqlite3 / pg), no
 *   Prisma, no validation: one transaction with the sequence update and one multi-row insert into
 *   Message and into Event. What the database and the driver allow on this machine; the gap to it is
 *   Arbor's (and Prisma's) share.
 *
 * PostgreSQL is the throwaway loopback cluster of deploy/postgres.sh (started here when it is not
 * running), default settings (fsync and synchronous commit on), one new database per run.
 *
 * Run: npx tsx --import ./testing/server-only/loader.mjs bench/event-append.bench.ts
 */
import { execFileSync } from "node:child_process";
import { performance } from "node:perf_hooks";
import Database from "better-sqlite3";
import pg from "pg";
import type { EventInput } from "@/server/domain/events/schema";
import { EventStore } from "@/server/events/store";
import { createTestDbOn, seedSession } from "@/testing/db/test-db";

const SINGLE = 300;
const BATCHES = 30;
const BATCH = 200;
const LARGE_BATCHES = 5;
const LARGE_BATCH = 1_000;

const message = (i: number): EventInput => ({
  type: "message-posted",
  messageId: `m${i}-${Math.random().toString(36).slice(2)}`,
  runId: null,
  role: "user",
  text: `message ${i}`,
});

function p95(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? 0;
}

/** One batch of `rows` message-posted events, as the driver writes them (placeholders per provider). */
function batchSql(postgres: boolean, rows: number) {
  const tuples = (columns: number) =>
    Array.from(
      { length: rows },
      (_, row) =>
        `(${Array.from({ length: columns }, (_, column) => (postgres ? `$${row * columns + column + 1}` : "?")).join(",")})`,
    ).join(",");
  return {
    message: `INSERT INTO "Message" ("id","sessionId","runId","role","text","createdAt") VALUES ${tuples(6)}`,
    event: `INSERT INTO "Event" ("sessionId","seq","type","runId","payload","createdAt") VALUES ${tuples(6)}`,
  };
}

/** The floor: the same batches through the bare driver, in one transaction each (see the header). */
async function driverFloor(url: string, sessionId: string, postgres: boolean): Promise<number> {
  const sql = batchSql(postgres, BATCH);
  const values = (b: number, seqBase: number) => {
    const at = postgres ? new Date() : new Date().toISOString();
    const bodies = Array.from({ length: BATCH }, (_, i) => message(b * BATCH + i));
    return {
      message: bodies.flatMap((body) =>
        body.type === "message-posted"
          ? [`f-${body.messageId}`, sessionId, null, body.role, body.text, at]
          : [],
      ),
      event: bodies.flatMap((body, i) => [
        sessionId,
        seqBase + i + 1,
        body.type,
        null,
        JSON.stringify(body),
        at,
      ]),
    };
  };
  const update = `UPDATE "Session" SET "lastSeq" = "lastSeq" + ${BATCH} WHERE "id" = ${postgres ? "$1" : "?"} RETURNING "lastSeq"`;
  const started = performance.now();
  if (postgres) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    for (let b = 0; b < BATCHES; b++) {
      await client.query("BEGIN");
      const { rows } = await client.query<{ lastSeq: number }>(update, [sessionId]);
      const rowValues = values(b, (rows[0]?.lastSeq ?? 0) - BATCH);
      await client.query(sql.message, rowValues.message);
      await client.query(sql.event, rowValues.event);
      await client.query("COMMIT");
    }
    await client.end();
  } else {
    const file = new Database(url.replace(/^file:/, ""));
    file.pragma("journal_mode = WAL");
    const updateSeq = file.prepare(update);
    const insertMessages = file.prepare(sql.message);
    const insertEvents = file.prepare(sql.event);
    for (let b = 0; b < BATCHES; b++)
      file
        .transaction(() => {
          const { lastSeq } = updateSeq.get(sessionId) as { lastSeq: number };
          const rowValues = values(b, lastSeq - BATCH);
          insertMessages.run(...rowValues.message);
          insertEvents.run(...rowValues.event);
        })
        .immediate();
    file.close();
  }
  return (BATCHES * BATCH) / ((performance.now() - started) / 1000);
}

async function batched(store: EventStore, sessionId: string, batches: number, size: number, from: number) {
  const samples: number[] = [];
  const started = performance.now();
  for (let b = 0; b < batches; b++) {
    const at = performance.now();
    await store.append(
      sessionId,
      Array.from({ length: size }, (_, i) => message(from + b * size + i)),
    );
    samples.push(performance.now() - at);
  }
  return { rate: (batches * size) / ((performance.now() - started) / 1000), samples };
}

async function measure(label: string, postgresUrl: string | undefined) {
  const { db, url, cleanup } = await createTestDbOn(postgresUrl);
  try {
    const store = new EventStore(db);
    const { session } = await seedSession(db);
    for (let i = 0; i < 50; i++) await store.append(session.id, [message(i)]); // warm-up

    const singles: number[] = [];
    const started = performance.now();
    for (let i = 0; i < SINGLE; i++) {
      const at = performance.now();
      await store.append(session.id, [message(i)]);
      singles.push(performance.now() - at);
    }
    const singleRate = SINGLE / ((performance.now() - started) / 1000);

    const { rate: batchRate, samples: batches } = await batched(store, session.id, BATCHES, BATCH, 100_000);
    const large = await batched(store, session.id, LARGE_BATCHES, LARGE_BATCH, 200_000);
    const floorRate = await driverFloor(url, session.id, postgresUrl !== undefined);
    console.log(
      `${label.padEnd(10)} single: ${Math.round(singleRate)} events/s, p95 ack ${p95(singles).toFixed(2)} ms | ` +
        `batched (${BATCH}): ${Math.round(batchRate)} events/s, p95 ack ${p95(batches).toFixed(1)} ms per batch | ` +
        `batched (${LARGE_BATCH}): ${Math.round(large.rate)} events/s, p95 ack ${p95(large.samples).toFixed(1)} ms | ` +
        `floor, bare driver (${BATCH}): ${Math.round(floorRate)} events/s (Arbor at ${(batchRate / floorRate).toFixed(2)}× it)`,
    );
    return { singleRate, batchRate };
  } finally {
    await cleanup();
  }
}

const postgresUrl = execFileSync("bash", ["deploy/postgres.sh"], {
  encoding: "utf8",
  stdio: ["ignore", "pipe", "inherit"],
})
  .trim()
  .split("\n")
  .at(-1);
const sqlite = await measure("SQLite", undefined);
const postgres = await measure("PostgreSQL", postgresUrl);
console.log(
  `ratio PostgreSQL/SQLite: single ${(postgres.singleRate / sqlite.singleRate).toFixed(2)}, batched ${(postgres.batchRate / sqlite.batchRate).toFixed(2)}`,
);
const goal = 20_000;
for (const [name, result] of [
  ["SQLite", sqlite],
  ["PostgreSQL", postgres],
] as const)
  console.log(`${name}: batched goal ${goal} events/s ${result.batchRate >= goal ? "met" : "NOT met"}`);
