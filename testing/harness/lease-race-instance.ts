/**
 * One Arbor instance of the lease test (server/postgres/run-leases.integration.test.ts): races the
 * other instances for the runs named on the command line and drives each run it leases the way the
 * orchestrator does — reading the run's events first and going on from where the log stops — by
 * appending numbered steps, one every STEP_MS, up to STEPS, then a closing message. Exits 0 when the
 * log shows every run finished.
 *
 * Usage: instance.ts <url> <name> <ttlMs> <sessionId:runId>...
 */
import { createDb } from "@/server/db";
import { EventStore } from "@/server/events/store";
import { PgRunLeases } from "@/server/postgres/run-leases";

const STEPS = 20;
const STEP_MS = 40;
const [url = "", name = "", ttl = "1500", ...pairs] = process.argv.slice(2);
const runs = pairs.map((pair) => {
  const [sessionId = "", runId = ""] = pair.split(":");
  return { sessionId, runId };
});
const db = createDb(url);
const store = new EventStore(db);
const leases = new PgRunLeases(url, { ttlMs: Number(ttl), owner: name });
const driving = new Set<string>();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The steps the log already holds for this run, and whether it was finished. */
async function progress(sessionId: string, runId: string) {
  const events = await store.read(sessionId, 0, 10_000);
  const texts = events.flatMap((event) =>
    event.body.type === "message-posted" && event.body.runId === runId ? [event.body.text] : [],
  );
  return {
    steps: texts.filter((text) => text.startsWith("step ")).length,
    finished: texts.includes("finished"),
  };
}

async function drive(sessionId: string, runId: string): Promise<void> {
  try {
    let { steps, finished } = await progress(sessionId, runId);
    while (!finished) {
      const text = steps < STEPS ? `step ${steps} by ${name}` : "finished";
      await store.append(sessionId, [
        { type: "message-posted", messageId: `${runId}-${steps}`, runId, role: "agent", text },
      ]);
      if (steps < STEPS) steps += 1;
      else finished = true;
      await sleep(STEP_MS);
    }
  } finally {
    await leases.release(runId);
    driving.delete(runId);
  }
}

console.log("booted");
for (;;) {
  let open = 0;
  for (const { sessionId, runId } of runs) {
    if (driving.has(runId)) {
      open += 1;
      continue;
    }
    if ((await progress(sessionId, runId)).finished) continue;
    open += 1;
    if (await leases.acquire(runId, sessionId)) {
      driving.add(runId);
      void drive(sessionId, runId);
    }
  }
  if (open === 0) break;
  await sleep(100);
}
await leases.close();
await db.$disconnect();
console.log("done");
