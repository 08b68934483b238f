/**
 * The appending instance of bench/live-latency.bench.ts's cross-instance case: opens the PostgreSQL
 * database at `url` as a server would (its appends NOTIFY under `instance`) and appends `count`
 * messages to one session, one every `intervalMs`, each carrying the wall-clock time (ms, fractional)
 * its append started. Prints "done" when all were acknowledged.
 *
 * Usage: node --import tsx --import testing/server-only/loader.mjs latency-writer.ts <url> <sessionId> <count> <intervalMs> <instance>
 */
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { createDb } from "@/server/db";
import { EventStore } from "@/server/events/store";

const [url = "", sessionId = "", count = "0", intervalMs = "20", instance = "writer"] = process.argv.slice(2);
const db = createDb(url);
const store = new EventStore(db, () => [], instance);
for (let i = 0; i < Number(count); i++) {
  const sentAt = performance.timeOrigin + performance.now();
  await store.append(sessionId, [
    { type: "message-posted", messageId: `x${i}-${sentAt}`, runId: null, role: "user", text: String(sentAt) },
  ]);
  await sleep(Number(intervalMs));
}
await db.$disconnect();
console.log("done");
