/**
 * One writer of the multi-process append test (server/events/append-race.integration.test.ts): opens
 * the database at `url` as a server would and appends `count` messages to one session, alternating
 * single appends and batches of three, as fast as it can. Prints "done" when all were acknowledged.
 *
 * With a fifth argument (PostgreSQL), each append also NOTIFYs other instances under that name.
 *
 * Usage: node --import tsx --import testing/server-only/loader.mjs child.ts <url> <sessionId> <writer> <count> [instance]
 */
import { configureSqlite, createDb } from "@/server/db";
import type { EventInput } from "@/server/domain/events/schema";
import { isPostgresUrl } from "@/server/env";
import { EventStore } from "@/server/events/store";

const [url = "", sessionId = "", writer = "", count = "0", instance] = process.argv.slice(2);
const db = createDb(url);
if (!isPostgresUrl(url)) await configureSqlite(db);
const store = new EventStore(db, () => [], instance ?? null);
const message = (i: number): EventInput => ({
  type: "message-posted",
  messageId: `${writer}-${i}`,
  runId: null,
  role: "user",
  text: `writer ${writer} message ${i}`,
});

const total = Number(count);
let i = 0;
while (i < total) {
  const size = Math.min(i % 2 === 0 ? 1 : 3, total - i);
  await store.append(
    sessionId,
    Array.from({ length: size }, (_, k) => message(i + k)),
  );
  i += size;
}
await db.$disconnect();
console.log("done");
