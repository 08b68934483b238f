import "server-only";
import type { SqlTx } from "@/server/db-driver";
import type { StoredEvent } from "@/server/domain/events/schema";
import {
  type BulkTable,
  insertStatements,
  runUpdate,
  type Statement,
  type UpdateStatement,
  updateStatements,
} from "./bulk-insert";
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

/** The projection each table holds (for an error's wording). */
const PROJECTION_OF = Object.fromEntries(
  Object.entries(TABLES).map(([projection, table]) => [table, projection]),
) as Record<BulkTable, ProjectionTable>;

/** A projection update found no row: the log names a row its tables never had. */
export class MissingProjectionRowError extends Error {
  constructor(table: ProjectionTable, ids: readonly string[]) {
    super(`no ${table} row ${ids.join(", ")} to update`);
    this.name = "MissingProjectionRowError";
  }
}

/** A batch's table writes, built before any runs: inserts in foreign-key order, then updates. */
export interface ProjectionStatements {
  inserts: Statement[];
  updates: UpdateStatement[];
}

/**
 * The statements that write a batch's table rows in bulk: one multi-row insert per table, in
 * foreign-key order, then one update per existing row changed — rows given the same columns share one
 * statement. `gate` as in bulk-insert.ts (a combined statement's condition).
 */
export async function projectionStatements(
  tx: SqlTx,
  sessionId: string,
  events: readonly StoredEvent[],
  gate = "",
): Promise<ProjectionStatements> {
  const writes = events
    .map((event) => projectionOf(sessionId, event))
    .filter((w): w is ProjectionWrite => !!w);
  const { creates, updates } = foldProjections(writes);
  const inserts: Statement[] = [];
  for (const table of INSERT_ORDER) {
    const rows = creates.get(table);
    if (rows && rows.length > 0) inserts.push(...(await insertStatements(tx, TABLES[table], rows, gate)));
  }
  const grouped = new Map<string, { table: ProjectionTable; ids: string[]; data: Row }>();
  for (const { table, id, data } of updates) {
    const key = `${table}\u0000${JSON.stringify(data)}`;
    const group = grouped.get(key) ?? { table, ids: [], data };
    group.ids.push(id);
    grouped.set(key, group);
  }
  const updateList = [...grouped.values()].flatMap(({ table, ids, data }) =>
    updateStatements(TABLES[table], ids, data, gate),
  );
  return { inserts, updates: updateList };
}

/**
 * Writes a batch's table rows in bulk, inside the transaction that appends the events (a reader never
 * sees a row without the event that explains it, or the reverse), and the batch's webhook deliveries
 * in one insert. The tables end exactly as if each event's row had been written with Prisma's
 * create/update one by one, in event order (server/events/projection-writer.integration.test.ts
 * compares both).
 */
export async function projectBatch(
  tx: SqlTx,
  sessionId: string,
  events: readonly StoredEvent[],
): Promise<void> {
  const { inserts, updates } = await projectionStatements(tx, sessionId, events);
  for (const { sql, args } of inserts) await tx.execute(sql, args);
  for (const update of updates)
    if ((await runUpdate(tx, update)) !== update.ids.length)
      throw new MissingProjectionRowError(PROJECTION_OF[update.table], update.ids);
  await enqueueWebhooks(tx, sessionId, events);
}
