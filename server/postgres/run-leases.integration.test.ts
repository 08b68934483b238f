import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EventStore } from "@/server/events/store";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { createTestDbOn, seedSession } from "@/testing/db/test-db";
import { testPostgresUrl } from "@/testing/harness/database-choice";

/**
 * Several Arbor instances (child processes) race for the same runs on one PostgreSQL database, and one
 * is killed with SIGKILL while it drives some of them. From the event log: every run is driven by
 * exactly one instance at every moment (the instances' stretches on a run never overlap), its steps are
 * written once each with none missing (the next instance went on from the events), and the runs of
 * the killed instance were taken over only after its leases expired.
 */
const INSTANCE = path.resolve("testing/harness/lease-race-instance.ts");
const SERVER_ONLY_LOADER = path.resolve("testing/server-only/loader.mjs");
const INSTANCES = 3;
const RUNS = 6;
const STEPS = 20;
const TTL_MS = 1_500;

let db: PrismaClient;
let url: string;
let cleanup: () => Promise<void>;
const children: ChildProcess[] = [];

beforeEach(async () => {
  const postgresUrl = testPostgresUrl();
  if (!postgresUrl) throw new Error("the lease test runs in the integration-postgres project only");
  ({ db, url, cleanup } = await createTestDbOn(postgresUrl));
});
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
  await cleanup();
});

function start(
  name: string,
  runs: string[],
): { child: ChildProcess; exit: Promise<{ code: number | null; output: string }> } {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "--import", SERVER_ONLY_LOADER, INSTANCE, url, name, String(TTL_MS), ...runs],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  children.push(child);
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exit = new Promise<{ code: number | null; output: string }>((resolve) =>
    child.on("exit", (code) => resolve({ code, output })),
  );
  return { child, exit };
}

describe("runs leased by several instances on PostgreSQL", () => {
  it("are driven by exactly one instance at every moment; a killed instance's runs resume elsewhere from their events", async () => {
    const runs: { sessionId: string; runId: string }[] = [];
    for (let i = 0; i < RUNS; i++)
      runs.push({ sessionId: (await seedSession(db, String(i))).session.id, runId: `run-${i}` });
    const args = runs.map((run) => `${run.sessionId}:${run.runId}`);
    const instances = Array.from({ length: INSTANCES }, (_, i) => ({
      name: `i${i}`,
      ...start(`i${i}`, args),
    }));

    // Kill the instance holding the most leases once every run has been claimed and is under way.
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    // The test database is dropped by `cleanup` (with its connections): that end is expected.
    admin.on("error", () => undefined);
    let victim = "";
    for (let tries = 0; tries < 600 && victim === ""; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const { rows } = await admin
        .query<{ owner: string; n: string }>(
          "SELECT owner, count(*) AS n FROM arbor_queue.run_lease WHERE owner IS NOT NULL GROUP BY owner ORDER BY n DESC",
        )
        .catch(() => ({ rows: [] as { owner: string; n: string }[] }));
      const stepsSoFar = await db.message.count();
      if (rows[0] && stepsSoFar >= RUNS * 3) victim = rows[0].owner;
    }
    if (victim === "") {
      for (const instance of instances) instance.child.kill("SIGKILL");
      const outputs = await Promise.all(instances.map((instance) => instance.exit));
      throw new Error(`no instance held a lease mid-run:\n${outputs.map((o) => o.output).join("\n---\n")}`);
    }
    const killedAt = Date.now();
    instances.find((instance) => instance.name === victim)?.child.kill("SIGKILL");
    const victimRuns = (
      await admin.query<{ run_id: string }>("SELECT run_id FROM arbor_queue.run_lease WHERE owner = $1", [
        victim,
      ])
    ).rows.map((row) => row.run_id);

    const exits = await Promise.all(instances.map((instance) => instance.exit));
    for (const [i, exit] of exits.entries()) {
      if (instances[i]?.name === victim) expect(exit.code).toBeNull();
      else expect(exit.code, exit.output).toBe(0);
    }
    const claims = await admin.query<{ run_id: string; claims: number }>(
      "SELECT run_id, claims FROM arbor_queue.run_lease",
    );
    await admin.end();

    const store = new EventStore(db);
    for (const run of runs) {
      const events = (await store.read(run.sessionId, 0, 10_000)).flatMap((event) =>
        event.body.type === "message-posted" ? [{ at: Date.parse(event.at), text: event.body.text }] : [],
      );
      const steps = events.filter((event) => event.text.startsWith("step "));
      // Every step once, in order, none missing; then the closing message, once.
      expect(steps.map((event) => Number(event.text.split(" ")[1]))).toEqual(
        Array.from({ length: STEPS }, (_, i) => i),
      );
      expect(events.at(-1)?.text).toBe("finished");
      expect(events.filter((event) => event.text === "finished")).toHaveLength(1);

      // Each instance's stretch on this run: contiguous in the log, one after the other, never interleaved.
      const drivers = steps.map((event) => event.text.split(" by ")[1] ?? "");
      const stretches = drivers.filter((driver, i) => i === 0 || drivers[i - 1] !== driver);
      expect(new Set(stretches).size, `drivers of ${run.runId}: ${drivers.join(",")}`).toBe(stretches.length);
      if (stretches.length > 1) {
        // A change of driver happens only where the killed instance stopped, after its lease ran out.
        expect(stretches.slice(0, -1)).toEqual([victim]);
        expect(victimRuns).toContain(run.runId);
        const firstOfNext = steps.find((event) => !event.text.endsWith(` by ${victim}`));
        expect(firstOfNext?.at ?? 0).toBeGreaterThanOrEqual(killedAt + TTL_MS * 0.5);
      }
    }
    // The killed instance held at least one run mid-way, and each of those was claimed again.
    const takenOver = runs.filter((run) => victimRuns.includes(run.runId));
    expect(takenOver.length).toBeGreaterThan(0);
    for (const run of takenOver)
      expect(claims.rows.find((row) => row.run_id === run.runId)?.claims ?? 0).toBeGreaterThanOrEqual(2);
  });
});
