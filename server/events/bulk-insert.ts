import "server-only";
import { Prisma } from "@/server/generated/prisma/client";

type Tx = Prisma.TransactionClient;

/** The tables the append writes in bulk: a fixed list, so a name is never built from input. */
export type BulkTable = "Event" | "Run" | "Intention" | "Message" | "Approval" | "Cycle";

/** Under SQLite's (32 766) and PostgreSQL's (65 535) limits on bound values per statement. */
const MAX_VALUES_PER_STATEMENT = 30_000;

/**
 * Inserts rows with as few multi-row `INSERT` statements as their shapes allow (rows with the same
 * columns share one; a statement holds at most MAX_VALUES_PER_STATEMENT values). Raw SQL, not
 * Prisma's createMany: the query compiler spent about 0.5 ms per row building the same statement, most
 * of a batched append's time. Values are bound parameters (Prisma.sql), so each provider gets its own
 * placeholders and the same conversions as the model API (dates, booleans); the projection tests
 * compare the stored rows with Prisma's own writes.
 */
export async function insertRows(
  tx: Tx,
  table: BulkTable,
  rows: readonly Record<string, unknown>[],
): Promise<void> {
  const shapes = new Map<string, { columns: string[]; rows: Record<string, unknown>[] }>();
  for (const row of rows) {
    const columns = Object.keys(row).filter((column) => row[column] !== undefined);
    const key = columns.join(",");
    const shape = shapes.get(key) ?? { columns, rows: [] };
    shape.rows.push(row);
    shapes.set(key, shape);
  }
  for (const { columns, rows: same } of shapes.values()) {
    const perStatement = Math.max(1, Math.floor(MAX_VALUES_PER_STATEMENT / columns.length));
    const names = Prisma.raw(columns.map((column) => `"${column}"`).join(", "));
    for (let start = 0; start < same.length; start += perStatement) {
      const values = same
        .slice(start, start + perStatement)
        .map((row) => Prisma.sql`(${Prisma.join(columns.map((column) => row[column] ?? null))})`);
      await tx.$executeRaw`INSERT INTO ${Prisma.raw(`"${table}"`)} (${names}) VALUES ${Prisma.join(values)}`;
    }
  }
}
