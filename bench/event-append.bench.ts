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
 * PostgreSQL is the throwaway loopback cluster of deploy/postgres.sh (started here when it is not
 * running), default settings (fsync and synchronous commit on), one new database per run.
 *
 * Run: npx tsx --import ./testing/server-only/loader.mjs bench/event-append.bench.ts
 */
import { execFileSync } from "node:child_process";
import { performance } from "node:perf_hooks";
import type { EventInput } from "@/server/domain/events/schema";
import { EventStore } from "@/server/events/store";
import { createTestDbOn, seedSession } from "@/testing/db/test-db";

const SINGLE = 2_000;
const BATCHES = 50;
const BATCH = 200;

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

async function measure(label: string, postgresUrl: string | undefined) {
  const { db, cleanup } = await createTestDbOn(postgresUrl);
  try {
    const store = new EventStore(db);
    const { session } = await seedSession(db);
    for (let i = 0; i < 50; i++) await store.append(session.id, [message(i)]); // warm-up

    const singles: number[] = [];
    let started = performance.now();
    for (let i = 0; i < SINGLE; i++) {
      const at = performance.now();
      await store.append(session.id, [message(i)]);
      singles.push(performance.now() - at);
    }
    const singleRate = SINGLE / ((performance.now() - started) / 1000);

    const batches: number[] = [];
    started = performance.now();
    for (let b = 0; b < BATCHES; b++) {
      const at = performance.now();
      await store.append(
        session.id,
        Array.from({ length: BATCH }, (_, i) => message(b * BATCH + i)),
      );
      batches.push(performance.now() - at);
    }
    const batchRate = (BATCHES * BATCH) / ((performance.now() - started) / 1000);
    console.log(
      `${label.padEnd(10)} single: ${Math.round(singleRate)} events/s, p95 ack ${p95(singles).toFixed(2)} ms | ` +
        `batched (${BATCH}): ${Math.round(batchRate)} events/s, p95 ack ${p95(batches).toFixed(1)} ms per batch`,
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
