import "server-only";
import type { StoredEvent } from "@/server/domain/events/schema";
import type { Prisma } from "@/server/generated/prisma/client";
import { insertRows } from "./bulk-insert";
import {
  foldProjections,
  INSERT_ORDER,
  type ProjectionTable,
  type ProjectionWrite,
  projectionOf,
} from "./projections";
import { enqueueWebhooks } from "./webhook-outbox";

type Tx = Prisma.TransactionClient;
type Row = Record<string, unknown>;

/** The two statements a projection needs, per table (the mappers in projections.ts name the columns). */
interface TableWriter {
  createMany(tx: Tx, rows: Row[]): Promise<void>;
  /** Sets `data` on every row in `ids`; resolves to how many rows it changed. */
  updateMany(tx: Tx, ids: string[], data: Row): Promise<number>;
}

const TABLES: Record<ProjectionTable, TableWriter> = {
  run: {
    createMany: (tx, rows) => insertRows(tx, "Run", rows),
    updateMany: async (tx, ids, data) =>
      (
        await tx.run.updateMany({
          where: { id: { in: ids } },
          data: data as Prisma.RunUpdateManyMutationInput,
        })
      ).count,
  },
  intention: {
    createMany: (tx, rows) => insertRows(tx, "Intention", rows),
    updateMany: async (tx, ids, data) =>
      (
        await tx.intention.updateMany({
          where: { id: { in: ids } },
          data: data as Prisma.IntentionUpdateManyMutationInput,
        })
      ).count,
  },
  message: {
    createMany: (tx, rows) => insertRows(tx, "Message", rows),
    updateMany: async (tx, ids, data) =>
      (
        await tx.message.updateMany({
          where: { id: { in: ids } },
          data: data as Prisma.MessageUpdateManyMutationInput,
        })
      ).count,
  },
  approval: {
    createMany: (tx, rows) => insertRows(tx, "Approval", rows),
    updateMany: async (tx, ids, data) =>
      (
        await tx.approval.updateMany({
          where: { id: { in: ids } },
          data: data as Prisma.ApprovalUncheckedUpdateManyInput,
        })
      ).count,
  },
  cycle: {
    createMany: (tx, rows) => insertRows(tx, "Cycle", rows),
    updateMany: async (tx, ids, data) =>
      (
        await tx.cycle.updateMany({
          where: { id: { in: ids } },
          data: data as Prisma.CycleUpdateManyMutationInput,
        })
      ).count,
  },
};

/** A projection update found no row: the log names a row its tables never had. */
export class MissingProjectionRowError extends Error {
  constructor(table: ProjectionTable, ids: readonly string[]) {
    super(`no ${table} row ${ids.join(", ")} to update`);
    this.name = "MissingProjectionRowError";
  }
}

async function updateRows(tx: Tx, table: ProjectionTable, ids: string[], data: Row): Promise<void> {
  const changed = await TABLES[table].updateMany(tx, ids, data);
  if (changed !== ids.length) throw new MissingProjectionRowError(table, ids);
}

/**
 * Writes a batch's table rows in bulk, inside the transaction that appends the events (a reader never
 * sees a row without the event that explains it, or the reverse): one multi-row insert per table, in
 * foreign-key order, then one update per existing row changed — rows given the same columns share one
 * statement — and the batch's webhook deliveries in one insert. The tables end exactly as if each
 * event's row had been written with Prisma's create/update one by one, in event order
 * (server/events/projection-writer.integration.test.ts compares both).
 */
export async function projectBatch(tx: Tx, sessionId: string, events: readonly StoredEvent[]): Promise<void> {
  const writes = events
    .map((event) => projectionOf(sessionId, event))
    .filter((w): w is ProjectionWrite => !!w);
  const { creates, updates } = foldProjections(writes);
  for (const table of INSERT_ORDER) {
    const rows = creates.get(table);
    if (rows && rows.length > 0) await TABLES[table].createMany(tx, rows);
  }
  const grouped = new Map<string, { table: ProjectionTable; ids: string[]; data: Row }>();
  for (const { table, id, data } of updates) {
    const key = `${table}\u0000${JSON.stringify(data)}`;
    const group = grouped.get(key) ?? { table, ids: [], data };
    group.ids.push(id);
    grouped.set(key, group);
  }
  for (const { table, ids, data } of grouped.values()) await updateRows(tx, table, ids, data);
  await enqueueWebhooks(tx, sessionId, events);
}
