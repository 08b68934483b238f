import { afterEach, describe, expect, it } from "vitest";
import { EventStore } from "@/server/events/store";
import { createOfflineModel } from "@/server/model";
import type { Orchestrator } from "@/server/orchestrator/orchestrator";
import { testPostgresUrl } from "@/testing/harness/database-choice";
import { orchestratorWorld } from "@/testing/harness/orchestrator-world";
import { PgRunLeases } from "./run-leases";

/**
 * Two instances on one PostgreSQL database, each an Orchestrator with its own leases (two owners in
 * one process; the process-level race and kill are in run-leases.integration.test.ts): a run is driven
 * only where it started, while a person's answer or Stop arrives at the other instance. Real Docker,
 * the offline model.
 */
const world = orchestratorWorld({ repoName: "Clustered", postgresUrl: testPostgresUrl() });
const { actor } = world;
const TTL_MS = 1_500;
let opened: PgRunLeases[] = [];

afterEach(async () => {
  await Promise.all(opened.map((leases) => leases.close()));
  opened = [];
});

function instance(name: string): { orchestrator: Orchestrator; leases: PgRunLeases } {
  const url = world.dbUrl;
  const leases = new PgRunLeases(url, {
    ttlMs: TTL_MS,
    owner: name,
    onLost: (runIds) => {
      throw new Error(`${name} lost the leases of ${runIds.join(", ")}`);
    },
  });
  opened.push(leases);
  return { orchestrator: world.orchestrator({ model: createOfflineModel(), leases }), leases };
}

const driversOf = async (runId: string) =>
  (
    await world.db.$queryRawUnsafe<{ owner: string | null; claims: number }[]>(
      `SELECT owner, claims FROM arbor_queue.run_lease WHERE run_id = $1`,
      runId,
    )
  )[0];

describe("two instances on one PostgreSQL database", () => {
  it("the instance that started a run drives it; an answer given on the other reaches it", async () => {
    const a = instance("instance-a");
    const b = instance("instance-b");
    const { runId } = await a.orchestrator.startRun({
      sessionId: world.sessionId,
      task: "run `echo one` and then run `echo two`",
      mode: "agent",
      actor,
    });
    const approval = await world.waitForApproval();
    // B finds nothing to resume: A holds the lease and is alive.
    expect(await b.orchestrator.resumeInterrupted()).toBe(0);
    await b.orchestrator.decide({
      sessionId: world.sessionId,
      approvalId: approval.id,
      decision: "approved",
      reason: null,
      actor,
    });
    await a.orchestrator.idle();
    const events = await new EventStore(world.db).read(world.sessionId);
    expect((await world.db.run.findUniqueOrThrow({ where: { id: runId } })).status).toBe("VERIFIED");
    // Driven once, start to end, by A: one claim, no resume, and the lease given back.
    expect(await driversOf(runId)).toEqual({ owner: null, claims: 1 });
    expect(events.some((event) => event.body.type === "run-resumed")).toBe(false);
  });

  it("Stop pressed on the other instance stops the run where it is driven", async () => {
    const a = instance("instance-a");
    const b = instance("instance-b");
    const { runId } = await a.orchestrator.startRun({
      sessionId: world.sessionId,
      task: "run `echo one` and then run `echo two`",
      mode: "agent",
      actor,
    });
    await world.waitForApproval();
    await b.orchestrator.stop(world.sessionId, runId, actor);
    const run = await world.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect([run.status, run.reason]).toEqual(["STOPPED", expect.stringContaining("Ada")]);
    await a.orchestrator.idle();
    const ended = (await new EventStore(world.db).read(world.sessionId)).filter(
      (event) => event.body.type === "run-ended",
    );
    expect(ended).toHaveLength(1);
    expect(await driversOf(runId)).toEqual({ owner: null, claims: 1 });
  });

  it("a run whose instance stopped renewing its lease is resumed by the other, from its events", async () => {
    // The run was started by an instance that then went away holding the lease: its engine is left
    // waiting here unwoken (an orchestrator without leases never looks for answers given elsewhere),
    // and its lease row says instance-a, renewed for the last time a moment ago.
    const gone = world.orchestrator({ model: createOfflineModel() });
    const { runId } = await gone.startRun({
      sessionId: world.sessionId,
      task: "run `echo one` and then run `echo two`",
      mode: "agent",
      actor,
    });
    const approval = await world.waitForApproval();
    const b = instance("instance-b");
    await b.leases.acquire("warm-up", world.sessionId); // creates the lease table
    await world.db.$executeRawUnsafe(
      `INSERT INTO arbor_queue.run_lease (run_id, session_id, owner, lease_until, claims)
       VALUES ($1, $2, 'instance-a', now() + interval '1 second', 1)`,
      runId,
      world.sessionId,
    );
    // While instance-a's lease lasts, B leaves the run alone.
    expect(await b.orchestrator.resumeInterrupted()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(await b.orchestrator.resumeInterrupted()).toBe(1);
    await b.orchestrator.decide({
      sessionId: world.sessionId,
      approvalId: approval.id,
      decision: "approved",
      reason: null,
      actor,
    });
    await b.orchestrator.idle();
    expect((await world.db.run.findUniqueOrThrow({ where: { id: runId } })).status).toBe("VERIFIED");
    const resumed = (await new EventStore(world.db).read(world.sessionId)).filter(
      (event) => event.body.type === "run-resumed",
    );
    expect(resumed).toHaveLength(1);
    expect(await driversOf(runId)).toEqual({ owner: null, claims: 2 });
  });
});
