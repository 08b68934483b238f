/**
 * Issue #19's live latency: an event appended → received by a follower subscribed the way the browser
 * is. The follower is the live follow path itself (server/events/follow.ts's `followEvents`: backlog,
 * then the in-process bus), served as `text/event-stream` over loopback HTTP and read with `fetch`, as
 * an SSE subscription is. It is not the Next.js server's tRPC endpoint (that needs a production build
 * and a signed-in browser, minutes per run): routing, auth and tRPC's framing are not in the figure.
 *
 * - same instance, SQLite and PostgreSQL: this process appends and follows (goal p50 < 20 ms);
 * - across instances, PostgreSQL: another process appends (NOTIFY in its transaction), this one
 *   LISTENs (server/events/pg-notifications.ts), reads the announced events from the table and
 *   follows them (goal p95 < 100 ms).
 * Baseline, same run: the append's own acknowledgement (call → committed), the floor of any latency.
 * Each sample is one event: its append started at a wall-clock time it carries; the latency is when
 * the HTTP client parsed it. Both processes share the host's clock.
 *
 * Run: npx tsx --import ./testing/server-only/loader.mjs bench/live-latency.bench.ts
 */
import { execFileSync, spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import type { StoredEvent } from "@/server/domain/events/schema";
import { followEvents } from "@/server/events/follow";
import { listenForEvents } from "@/server/events/pg-notifications";
import { EventStore } from "@/server/events/store";
import { createTestDbOn, seedSession } from "@/testing/db/test-db";

const SAMPLES = 100;
const INTERVAL_MS = 25;
const WARM_UP = 10;
const wallClock = () => performance.timeOrigin + performance.now();

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}
const summary = (samples: number[]) =>
  `p50 ${percentile(samples, 0.5).toFixed(1)} ms, p95 ${percentile(samples, 0.95).toFixed(1)} ms`;

/** Serves one session's followEvents as an event stream, as the live view's subscription does. */
async function serveFollow(store: EventStore, sessionId: string): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    const abort = new AbortController();
    request.on("close", () => abort.abort());
    response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store" });
    response.flushHeaders();
    void (async () => {
      for await (const event of followEvents(store, sessionId, 0, abort.signal))
        response.write(`data: ${JSON.stringify(event)}\n\n`);
    })().catch(() => response.end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

/** Reads the stream; calls `onEvent` with each event and the wall-clock time it was parsed. */
async function subscribe(
  url: string,
  signal: AbortSignal,
  onEvent: (event: StoredEvent, at: number) => void,
) {
  const response = await fetch(url, { signal });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end = buffer.indexOf("\n\n");
      while (end >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (frame.startsWith("data: ")) onEvent(JSON.parse(frame.slice(6)) as StoredEvent, wallClock());
        end = buffer.indexOf("\n\n");
      }
    }
  })().catch(() => undefined);
}

const sentAtOf = (event: StoredEvent) =>
  event.body.type === "message-posted" ? Number(event.body.text) : NaN;

async function sameInstance(label: string, postgresUrl: string | undefined) {
  const { db, cleanup } = await createTestDbOn(postgresUrl);
  const { session } = await seedSession(db);
  const store = new EventStore(db);
  const { url, server } = await serveFollow(store, session.id);
  const abort = new AbortController();
  const latencies: number[] = [];
  const acks: number[] = [];
  await subscribe(url, abort.signal, (event, at) => {
    if (event.seq > WARM_UP) latencies.push(at - sentAtOf(event));
  });
  try {
    for (let i = 0; i < WARM_UP + SAMPLES; i++) {
      const sentAt = wallClock();
      await store.append(session.id, [
        { type: "message-posted", messageId: `m${i}`, runId: null, role: "user", text: String(sentAt) },
      ]);
      if (i >= WARM_UP) acks.push(wallClock() - sentAt);
      await sleep(INTERVAL_MS);
    }
    await sleep(200);
    console.log(
      `${label.padEnd(10)} same instance: append → follower ${summary(latencies)} (${latencies.length} events) | baseline append ack ${summary(acks)}`,
    );
    return { latencies, acks };
  } finally {
    abort.abort();
    server.closeAllConnections();
    server.close();
    await cleanup();
  }
}

async function acrossInstances(postgresUrl: string) {
  const { db, url: databaseUrl, cleanup } = await createTestDbOn(postgresUrl);
  const { session } = await seedSession(db);
  const store = new EventStore(db, () => [], "follower");
  const listener = listenForEvents(databaseUrl, "follower", store);
  await listener.ready;
  const { url, server } = await serveFollow(store, session.id);
  const abort = new AbortController();
  const latencies: number[] = [];
  let received = 0;
  await subscribe(url, abort.signal, (event, at) => {
    received += 1;
    if (event.seq > WARM_UP) latencies.push(at - sentAtOf(event));
  });
  try {
    await sleep(100); // the follower has subscribed to the bus before the first append
    const writer = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "--import",
        path.resolve("testing/server-only/loader.mjs"),
        path.resolve("testing/bench/latency-writer.ts"),
        databaseUrl,
        session.id,
        String(WARM_UP + SAMPLES),
        String(INTERVAL_MS),
        "writer",
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    const code = await new Promise<number | null>((resolve) => writer.on("exit", resolve));
    if (code !== 0) throw new Error(`the writer process exited with ${code}`);
    await sleep(300);
    console.log(
      `PostgreSQL across instances (NOTIFY → LISTEN → table read): append → follower ${summary(latencies)} (${received} of ${WARM_UP + SAMPLES} events)`,
    );
    return { latencies };
  } finally {
    abort.abort();
    server.closeAllConnections();
    server.close();
    await listener.close();
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
if (!postgresUrl) throw new Error("deploy/postgres.sh printed no URL");
const sqlite = await sameInstance("SQLite", undefined);
const postgres = await sameInstance("PostgreSQL", postgresUrl);
const across = await acrossInstances(postgresUrl);
const ratio = (a: number[], b: number[]) =>
  (percentile(a, 0.5) / Math.max(percentile(b, 0.5), 0.001)).toFixed(2);
console.log(
  `ratios (p50): follower/ack SQLite ${ratio(sqlite.latencies, sqlite.acks)}, PostgreSQL ${ratio(postgres.latencies, postgres.acks)}; across/same PostgreSQL ${ratio(across.latencies, postgres.latencies)}`,
);
for (const [name, samples] of [
  ["SQLite", sqlite.latencies],
  ["PostgreSQL", postgres.latencies],
] as const)
  console.log(`${name}: same-instance goal p50 < 20 ms ${percentile(samples, 0.5) < 20 ? "met" : "NOT met"}`);
console.log(
  `PostgreSQL: across-instances goal p95 < 100 ms ${percentile(across.latencies, 0.95) < 100 ? "met" : "NOT met"}`,
);
process.exit(0);
