import "server-only";
import type { SqlTx } from "@/server/db-driver";
import type { StoredEvent } from "@/server/domain/events/schema";
import { type BulkTable, insertRows, updateRows } from "./bulk-insert";
import {
  foldProjections,
  INSERT_ORDER,
  type ProjectionTable,
  type ProjectionWrite,
  projectionOf,
} from "./projections";
import { enqueueWebhooks } from "./webhook-outbox";

type Row = Record<string, unknown>;

/** The table each projection writes (the mappers in projections.ts name the columns). */
const TABLES: Record<ProjectionTable, BulkTable> = {
  run: "Run",
  intention: "Intention",
  message: "Message",
  approval: "Approval",
  cycle: "Cycle",
};

/** A projection update found no row: the log names a row its tables never had. */
export class MissingProjectionRowError extends Error {
  constructor(table: ProjectionTable, ids: readonly string[]) {
    super(`no ${table} row ${ids.join(", ")} to update`);
    this.name = "MissingProjectionRowError";
  }
}

async function updateExisting(tx: SqlTx, table: ProjectionTable, ids: string[], data: Row): Promise<void> {
  const changed = await updateRows(tx, TABLES[table], ids, data);
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
export async function projectBatch(
  tx: SqlTx,
  sessionId: string,
  events: readonly StoredEvent[],
): Promise<void> {
  const writes = events
    .map((event) => projectionOf(sessionId, event))
    .filter((w): w is ProjectionWrite => !!w);
  const { creates, updates } = foldProjections(writes);
  for (const table of INSERT_ORDER) {
    const rows = creates.get(table);
    if (rows && rows.length > 0) await insertRows(tx, TABLES[table], rows);
  }
  const grouped = new Map<string, { table: ProjectionTable; ids: string[]; data: Row }>();
  for (const { table, id, data } of updates) {
    const key = `${table}\u0000${JSON.stringify(data)}`;
    const group = grouped.get(key) ?? { table, ids: [], data };
    group.ids.push(id);
    grouped.set(key, group);
  }
  for (const { table, ids, data } of grouped.values()) await updateExisting(tx, table, ids, data);
  await enqueueWebhooks(tx, sessionId, events);
}
