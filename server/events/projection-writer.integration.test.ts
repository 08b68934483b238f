import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EventInput, runIdOf, type StoredEvent } from "@/server/domain/events/schema";
import type { Prisma, PrismaClient } from "@/server/generated/prisma/client";
import { createTestDbOn, seedSession } from "@/testing/db/test-db";
import { cycle, decomposedRun, model } from "@/testing/events/events";
import { testDatabaseName, testPostgresUrl } from "@/testing/harness/database-choice";
import { MissingProjectionRowError } from "./projection-writer";
import { projectionOf } from "./projections";
import { EventStore } from "./store";

/**
 * The bulk append (one insert per table, folded and grouped updates, raw multi-row inserts) against
 * the path it replaced — each event's row with Prisma's own create/update, one by one, in event order,
 * and the event rows with createMany — on two databases fed the same batches: every table the append
 * writes must end identical, as stored (raw selects, so a date or boolean stored differently shows).
 */
const assignee = (userId: string | null) => ({
  type: "approval-assigned" as const,
  runId: "r1",
  approvalId: "ap1",
  assignee: userId ? { userId, name: "Ada" } : null,
  assignedBy: { userId: "u", name: "Ada" },
});
const BATCHES: EventInput[][] = [
  // Creates with updates of the same rows folded into them (root: ACTIVE, approval decided + assigned).
  [
    ...decomposedRun("r1"),
    ...cycle("r1", "c1", "cy1", 0),
    assignee("u"),
    { type: "cycle-reflected", runId: "r1", intentionId: "c1", cycleId: "cy1", reflection: "fine" },
    { type: "message-posted", messageId: "m2", runId: "r1", role: "agent", text: "done with a" },
  ],
  cycle("r1", "c2", "cy2", 1),
  // Updates of rows from earlier batches: two intentions given the same columns share a statement.
  [
    { type: "intention-status-changed", runId: "r1", intentionId: "c1", status: "VERIFIED", reason: "ok" },
    { type: "intention-status-changed", runId: "r1", intentionId: "c2", status: "VERIFIED", reason: "ok" },
    { type: "cycle-reflected", runId: "r1", intentionId: "c1", cycleId: "cy1", reflection: "again" },
    assignee(null),
  ],
  // Webhooks hear of these: on PostgreSQL the batches above go as one statement each, this one in a
  // transaction (it looks the team's webhooks up).
  [
    { type: "run-ended", runId: "r1", status: "VERIFIED", reason: "all passed" },
    { type: "run-started", runId: "r2", task: "second", mode: "agent", model },
    { type: "run-ended", runId: "r2", status: "FAILED", reason: "stopped" },
  ],
];
const TABLES = ["Event", "Run", "Intention", "Message", "Approval", "Cycle", "WebhookDelivery"] as const;
/** Columns filled by the database itself (autoincrement, now()), different on two databases by nature. */
const OWN_COLUMNS = new Set([
  "Event.id",
  "WebhookDelivery.id",
  "WebhookDelivery.createdAt",
  "WebhookDelivery.nextAttemptAt",
]);

interface Side {
  db: PrismaClient;
  cleanup: () => Promise<void>;
  sessionId: string;
  /** The seeded rows' generated ids, by the name they are compared under. */
  ids: Record<string, string>;
}

async function side(): Promise<Side> {
  const { db, cleanup } = await createTestDbOn(testPostgresUrl());
  const { user, team, project, session } = await seedSession(db);
  const hook = await db.teamWebhook.create({
    data: { teamId: team.id, url: "https://example.com/hook", secretSealed: "x", createdById: user.id },
  });
  const ids = { SESSION: session.id, PROJECT: project.id, TEAM: team.id, USER: user.id, HOOK: hook.id };
  return { db, cleanup, sessionId: session.id, ids };
}

/** The webhook outbox as Prisma's model API wrote it, one event at a time. */
async function enqueueOneByOne(tx: Prisma.TransactionClient, sessionId: string, event: StoredEvent) {
  const body = event.body;
  const payload =
    body.type === "run-started"
      ? { event: "run.started", runId: body.runId, task: body.task.slice(0, 500) }
      : body.type === "approval-requested"
        ? { event: "run.waiting", runId: body.runId, approvalId: body.approvalId, kind: body.kind }
        : body.type === "run-ended"
          ? { event: "run.ended", runId: body.runId, status: body.status, reason: body.reason }
          : null;
  if (!payload) return;
  const session = await tx.session.findUniqueOrThrow({
    where: { id: sessionId },
    select: {
      projectId: true,
      project: { select: { team: { select: { webhooks: { select: { id: true } } } } } },
    },
  });
  const text = JSON.stringify({
    ...payload,
    sessionId,
    projectId: session.projectId,
    at: event.at,
    path: `/projects/${session.projectId}/sessions/${sessionId}`,
  });
  await tx.webhookDelivery.createMany({
    data: session.project.team.webhooks.map((hook) => ({
      webhookId: hook.id,
      event: payload.event,
      payload: text,
    })),
  });
}

/** The path the bulk writer replaced, kept here as the reference it must equal. */
async function appendOneByOne(target: Side, events: readonly StoredEvent[]): Promise<void> {
  await target.db.$transaction(async (tx) => {
    await tx.session.update({
      where: { id: target.sessionId },
      data: { lastSeq: { increment: events.length } },
    });
    for (const event of events) {
      const write = projectionOf(target.sessionId, event);
      // biome-ignore lint/suspicious/noExplicitAny: the model delegate named by the write's table
      const delegate = write ? (tx as any)[write.table] : null;
      if (write?.kind === "create") await delegate.create({ data: write.data });
      else if (write) await delegate.update({ where: { id: write.id }, data: write.data });
      await enqueueOneByOne(tx, target.sessionId, event);
    }
    await tx.event.createMany({
      data: events.map((event) => ({
        sessionId: target.sessionId,
        seq: event.seq,
        type: event.body.type,
        runId: runIdOf(event.body),
        payload: JSON.stringify(event.body),
        createdAt: new Date(event.at),
      })),
    });
  });
}

async function tablesOf(target: Side): Promise<Record<string, string[]>> {
  const tables: Record<string, string[]> = {};
  for (const table of TABLES) {
    const rows = await target.db.$queryRawUnsafe<Record<string, unknown>[]>(`SELECT * FROM "${table}"`);
    tables[table] = rows
      .map((row) => {
        const kept = Object.entries(row).filter(([column]) => !OWN_COLUMNS.has(`${table}.${column}`));
        let text = JSON.stringify(Object.fromEntries(kept.sort(([a], [b]) => a.localeCompare(b))));
        for (const [name, id] of Object.entries(target.ids)) text = text.split(id).join(name);
        return text;
      })
      .sort();
  }
  return tables;
}

let bulk: Side;
let reference: Side;

beforeAll(async () => {
  [bulk, reference] = [await side(), await side()];
});
afterAll(async () => {
  await bulk?.cleanup();
  await reference?.cleanup();
});

describe(`the bulk projection writer on ${testDatabaseName()}`, () => {
  it("leaves every table exactly as writing each event's rows one by one does", async () => {
    const store = new EventStore(bulk.db);
    for (const batch of BATCHES) await appendOneByOne(reference, await store.append(bulk.sessionId, batch));
    const bulkTables = await tablesOf(bulk);
    const referenceTables = await tablesOf(reference);
    expect(bulkTables).toEqual(referenceTables);

    // And the tables hold what the script did (so equal cannot mean equally empty).
    const total = BATCHES.flat().length;
    expect(bulkTables.Event).toHaveLength(total);
    const intentions = await bulk.db.intention.findMany({ orderBy: { id: "asc" } });
    expect(intentions.map((row) => [row.id, row.status])).toEqual([
      ["c1", "VERIFIED"],
      ["c2", "VERIFIED"],
      ["root", "ACTIVE"],
    ]);
    const approval = await bulk.db.approval.findUniqueOrThrow({ where: { id: "ap1" } });
    expect([approval.status, approval.decidedById, approval.assignedToId]).toEqual(["APPROVED", "u", null]);
    expect((await bulk.db.cycle.findUniqueOrThrow({ where: { id: "cy1" } })).reflection).toBe("again");
    // run.started, run.waiting and run.ended of r1, run.started and run.ended of r2.
    expect(await bulk.db.webhookDelivery.count()).toBe(5);
    // The first batch numbers the log in a transaction; on PostgreSQL the store then knows where the
    // log ends and writes the next batches as one statement each, but for the one webhooks hear of.
    expect(store.appendsBy).toEqual(
      testDatabaseName() === "PostgreSQL"
        ? { oneStatement: 2, transaction: 2 }
        : { oneStatement: 0, transaction: 4 },
    );
  });

  it("refuses a batch that updates a row no table has, and appends nothing of it", async () => {
    const store = new EventStore(bulk.db);
    const before = (await bulk.db.session.findUniqueOrThrow({ where: { id: bulk.sessionId } })).lastSeq;
    await expect(
      store.append(bulk.sessionId, [
        { type: "message-posted", messageId: "m-lost", runId: null, role: "user", text: "kept?" },
        {
          type: "cycle-reflected",
          runId: "r1",
          intentionId: "c1",
          cycleId: "no-such-cycle",
          reflection: "x",
        },
      ]),
    ).rejects.toBeInstanceOf(MissingProjectionRowError);
    expect((await bulk.db.session.findUniqueOrThrow({ where: { id: bulk.sessionId } })).lastSeq).toBe(before);
    expect(await bulk.db.message.count({ where: { id: "m-lost" } })).toBe(0);
  });
});
