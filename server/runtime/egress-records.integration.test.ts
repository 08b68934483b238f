import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EgressSettings } from "@/server/domain/vocabulary/egress";
import { EventStore } from "@/server/events/store";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { createTestDb, seedSession } from "@/testing/db/test-db";
import { egressKeptBySession, egressRecords } from "./egress-records";

/** What a restarted server reads back of a session's network from a real database (issue #19). */
let db: PrismaClient;
let cleanup: () => Promise<void>;
let store: EventStore;
beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  store = new EventStore(db);
});
afterAll(async () => cleanup());

const custom = (allowList: string[]) => EgressSettings.parse({ agent: { mode: "custom" }, allowList });
const phaseSet = (allowList?: string[]) => ({
  type: "egress-phase-set" as const,
  runId: "run-1",
  phase: "agent" as const,
  requested: "custom" as const,
  applied: "custom" as const,
  problem: null,
  ...(allowList ? { getHeadOnly: false, allowList } : {}),
});

describe("egress records", () => {
  it("reads the last phase back, narrowed to the settings now, and records what was given back", async () => {
    const { session } = await seedSession(db, "restore");
    const records = egressRecords({ db, store, currentEgress: async () => custom(["a.example"]) });
    expect(await records.restoreFor(session.id)).toBeNull();
    await store.append(session.id, [phaseSet(["a.example", "b.example"])]);
    const plan = await records.restoreFor(session.id);
    expect(plan).toMatchObject({
      phase: "agent",
      settings: { agent: { mode: "custom" }, allowList: ["a.example"] },
    });
    expect(plan?.problem).toMatch(/tighter/);
    await records.restored(
      session.id,
      { phase: "agent", requested: "custom", applied: "custom", problem: null },
      plan?.settings ?? custom([]),
    );
    const last = (await store.read(session.id)).at(-1)?.body;
    expect(last).toMatchObject({
      type: "egress-phase-set",
      runId: "run-1",
      allowList: ["a.example"],
      restored: true,
    });
  });

  it("runs Off when the record lacks the list (an older event) or the settings cannot be read", async () => {
    const { session } = await seedSession(db, "old");
    await store.append(session.id, [phaseSet()]);
    const records = egressRecords({ db, store, currentEgress: async () => custom(["a.example"]) });
    expect((await records.restoreFor(session.id))?.settings.agent.mode).toBe("off");
    const unreadable = egressRecords({ db, store, currentEgress: () => Promise.reject(new Error("gone")) });
    expect((await unreadable.restoreFor(session.id))?.settings.agent.mode).toBe("off");
  });

  it("keeps a session's next run no wider than its agent phase was asked to be", async () => {
    const { session } = await seedSession(db, "kept");
    const wider = EgressSettings.parse({ agent: { mode: "open" }, allowList: ["a.example", "c.example"] });
    expect(await egressKeptBySession(db, session.id, wider)).toEqual(wider);
    await store.append(session.id, [phaseSet(["a.example"])]);
    expect(await egressKeptBySession(db, session.id, wider)).toMatchObject({
      agent: { mode: "custom" },
      allowList: ["a.example"],
    });
  });
});
