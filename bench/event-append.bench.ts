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
 * - concurrent: WRITERS sessions appending batches of BENCH_BATCH at once through the one store, as a
 *   server with several busy sessions does (PostgreSQL can group their commits and overlap one
 *   session's statements with another's client work); total events/s. Beside the serial figure, not
 *   instead of it.
 * - floor: the same batches of 200 written by the database driver itself (better-sqlite3 / pg), no
 *   Prisma, no validation: one transaction with the sequence update and one insert into Message and
 *   into Event — on PostgreSQL the fastest of three statement shapes (multi-row VALUES,
 *   json_populate_recordset, unnest arrays, and all of it as one statement of data-modifying CTEs with
 *   no BEGIN/COMMIT), each measured in the run. What the database and the driver allow on this
 *   machine; the gap to it is Arbor's share.
 *
 * On PostgreSQL Arbor appends as one statement once a store knows the session's last sequence number
 * (server/events/one-statement-append.ts); the line ends with how many appends went which way.
 * - commits alone (PostgreSQL): the floor's transactions with no rows, as events/s for batches of 200:
 *   the ceiling the commit flush leaves, whatever the statements.
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
const WRITERS = 4;

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

/** How the bare PostgreSQL driver sends a batch's rows (the floor takes the fastest of them). */
type PgShape = "values" | "json" | "unnest" | "unnest-literal" | "one-statement";

const MESSAGE_COLUMNS = `"id","sessionId","runId","role","text","createdAt"`;
const EVENT_COLUMNS = `"sessionId","seq","type","runId","payload","createdAt"`;

/** The statements and their bound values for one batch on PostgreSQL, in `shape`. */
function pgBatch(shape: PgShape, message: unknown[][], event: unknown[][]) {
  const names = (columns: string) => columns.split(",");
  if (shape === "values") {
    const sql = batchSql(true, message.length);
    return [
      [sql.message, message.flat()],
      [sql.event, event.flat()],
    ] as const;
  }
  if (shape === "json") {
    const json = (rows: unknown[][], columns: string) =>
      JSON.stringify(
        rows.map((row) => Object.fromEntries(names(columns).map((c, i) => [c.slice(1, -1), row[i]]))),
      );
    return [
      [
        `INSERT INTO "Message" (${MESSAGE_COLUMNS}) SELECT ${MESSAGE_COLUMNS} FROM json_populate_recordset(NULL::"Message", $1::json)`,
        [json(message, MESSAGE_COLUMNS)],
      ],
      [
        `INSERT INTO "Event" (${EVENT_COLUMNS}) SELECT ${EVENT_COLUMNS} FROM json_populate_recordset(NULL::"Event", $1::json)`,
        [json(event, EVENT_COLUMNS)],
      ],
    ] as const;
  }
  // "unnest": node-pg encodes each column's array; "unnest-literal": each column's JSON array text as
  // the array literal (these rows hold no escape but quotes), as Arbor's bulk-insert.ts sends them.
  const columnsOf = (rows: unknown[][], width: number) =>
    Array.from({ length: width }, (_, i) => {
      const column = rows.map((row) => row[i]);
      return shape === "unnest-literal" ? `{${JSON.stringify(column).slice(1, -1)}}` : column;
    });
  return [
    [
      `INSERT INTO "Message" (${MESSAGE_COLUMNS}) SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamp(3)[])`,
      columnsOf(message, 6),
    ],
    [
      `INSERT INTO "Event" (${EVENT_COLUMNS}) SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[], $6::timestamp(3)[])`,
      columnsOf(event, 6),
    ],
  ] as const;
}

/**
 * The floor: the same batches through the bare driver, in one transaction each (see the header); on
 * PostgreSQL in `shape`. With `rows` 0 only the transaction and the sequence update: what a commit
 * costs on this machine, the part no statement shape can remove.
 */
async function driverFloor(
  url: string,
  sessionId: string,
  postgres: boolean,
  shape: PgShape = "values",
  rows = BATCH,
): Promise<number> {
  const sql = batchSql(postgres, BATCH);
  const values = (b: number, seqBase: number) => {
    const at = new Date().toISOString();
    const bodies = Array.from({ length: rows }, (_, i) => message(b * BATCH + i));
    return {
      message: bodies.flatMap((body) =>
        body.type === "message-posted"
          ? [[`f-${shape}-${body.messageId}`, sessionId, null, body.role, body.text, at]]
          : [],
      ),
      event: bodies.map((body, i) => [sessionId, seqBase + i + 1, body.type, null, JSON.stringify(body), at]),
    };
  };
  const update = `UPDATE "Session" SET "lastSeq" = "lastSeq" + ${rows} WHERE "id" = ${postgres ? "$1" : "?"} RETURNING "lastSeq"`;
  const started = performance.now();
  if (postgres && shape === "one-statement") {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const literal = (column: unknown[]) => `{${JSON.stringify(column).slice(1, -1)}}`;
    for (let b = 0; b < BATCHES; b++) {
      // The sequence numbers from the update's result, inside the statement: no guess needed.
      const rowValues = values(b, 0);
      const column = (rows: unknown[][], i: number) => literal(rows.map((row) => row[i]));
      await client.query(
        `WITH "s" AS (UPDATE "Session" SET "lastSeq" = "lastSeq" + ${rows} WHERE "id" = $1 RETURNING "lastSeq"),
          "m" AS (INSERT INTO "Message" (${MESSAGE_COLUMNS}) SELECT * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamp(3)[])),
          "e" AS (INSERT INTO "Event" (${EVENT_COLUMNS})
            SELECT u."sessionId", "s"."lastSeq" - ${rows} + u.n::int, u."type", u."runId", u."payload", u."createdAt"
              FROM "s", unnest($8::text[], $9::text[], $10::text[], $11::text[], $12::timestamp(3)[]) WITH ORDINALITY
                AS u("sessionId", "type", "runId", "payload", "createdAt", n))
        SELECT "lastSeq" FROM "s"`,
        [
          sessionId,
          ...[0, 1, 2, 3, 4, 5].map((i) => column(rowValues.message, i)),
          ...[0, 2, 3, 4, 5].map((i) => column(rowValues.event, i)),
        ],
      );
    }
    await client.end();
  } else if (postgres) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    for (let b = 0; b < BATCHES; b++) {
      await client.query("BEGIN");
      const { rows: updated } = await client.query<{ lastSeq: number }>(update, [sessionId]);
      const rowValues = values(b, (updated[0]?.lastSeq ?? 0) - rows);
      if (rows > 0)
        for (const [text, args] of pgBatch(shape, rowValues.message, rowValues.event))
          await client.query(text, args as unknown[]);
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
          insertMessages.run(...rowValues.message.flat());
          insertEvents.run(...rowValues.event.flat());
        })
        .immediate();
    file.close();
  }
  return (BATCHES * Math.max(rows, BATCH)) / ((performance.now() - started) / 1000);
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
    // The same number of batches, spread over WRITERS sessions appending at once.
    const writers = [];
    for (let w = 0; w < WRITERS; w++) writers.push(await seedSession(db, `writer${w}`));
    const concurrentStarted = performance.now();
    const concurrent = await Promise.all(
      writers.map((writer, w) =>
        batched(store, writer.session.id, Math.ceil(BATCHES / WRITERS), BATCH, 300_000 + w * 10_000),
      ),
    );
    const concurrentRate =
      (WRITERS * Math.ceil(BATCHES / WRITERS) * BATCH) / ((performance.now() - concurrentStarted) / 1000);
    const postgres = postgresUrl !== undefined;
    // The baseline is the best plain way to insert the same rows: on PostgreSQL each statement shape
    // is measured and the fastest counts (its name is printed).
    const floors: [string, number][] = postgres
      ? [
          ["values", await driverFloor(url, session.id, true, "values")],
          ["json", await driverFloor(url, session.id, true, "json")],
          ["unnest", await driverFloor(url, session.id, true, "unnest")],
          ["unnest-literal", await driverFloor(url, session.id, true, "unnest-literal")],
          ["one-statement", await driverFloor(url, session.id, true, "one-statement")],
        ]
      : [["values", await driverFloor(url, session.id, false)]];
    const [floorShape, floorRate] = floors.reduce((best, floor) => (floor[1] > best[1] ? floor : best));
    // Batches of 200 at the rate of empty transactions (sequence update, commit): the ceiling commits allow.
    const commitCeiling = postgres ? await driverFloor(url, session.id, true, "values", 0) : null;
    console.log(
      `${label.padEnd(10)} single: ${Math.round(singleRate)} events/s, p95 ack ${p95(singles).toFixed(2)} ms | ` +
        `batched (${BATCH}): ${Math.round(batchRate)} events/s, p95 ack ${p95(batches).toFixed(1)} ms per batch | ` +
        `batched (${LARGE_BATCH}): ${Math.round(large.rate)} events/s, p95 ack ${p95(large.samples).toFixed(1)} ms | ` +
        `concurrent (${WRITERS} sessions × ${BATCH}): ${Math.round(concurrentRate)} events/s, p95 ack ${p95(concurrent.flatMap((c) => c.samples)).toFixed(1)} ms | ` +
        `floor, bare driver (${BATCH}, best of ${floors.map(([shape, rate]) => `${shape} ${Math.round(rate)}`).join(", ")}): ` +
        `${Math.round(floorRate)} events/s, ${floorShape} (Arbor at ${(batchRate / floorRate).toFixed(2)}× it)` +
        (commitCeiling === null
          ? ""
          : ` | commits alone (${BATCH} per commit): ${Math.round(commitCeiling)} events/s` +
            ` | appends in one statement ${store.appendsBy.oneStatement}, in a transaction ${store.appendsBy.transaction}`),
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
