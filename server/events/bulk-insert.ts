import "server-only";
import type { SqlTx } from "@/server/db-driver";

/** The tables the append writes in bulk: a fixed list, so a name is never built from input. */
export type BulkTable = "Event" | "Run" | "Intention" | "Message" | "Approval" | "Cycle" | "WebhookDelivery";

/** Under SQLite's (32 766) and PostgreSQL's (65 535) limits on bound values per statement. */
export const MAX_VALUES_PER_STATEMENT = 30_000;

/** A column name from a projection mapper or the store (code, never input), quoted for both databases. */
const quoted = (column: string) => `"${column.replace(/"/g, '""')}"`;

/** A lone UTF-16 surrogate, which PostgreSQL's JSON parser refuses (JSON.stringify writes `\\ud800`). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * The rows as one JSON array of objects keyed by column, for `json_populate_recordset`: dates become
 * ISO strings (UTC, as Prisma stores them in `timestamp(3)`), booleans and numbers stay JSON's own.
 * The column list as JSON.stringify's replacer keeps each row's keys without copying the row. A lone
 * surrogate becomes U+FFFD, as node-pg's UTF-8 encoding of a bound string turned it in the multi-row
 * VALUES this replaced, instead of failing the append.
 */
function rowsAsJson(rows: readonly Record<string, unknown>[], columns: string[]): string {
  const json = JSON.stringify(rows, columns);
  // JSON.stringify escapes only lone surrogates as \udXXX (pairs stay raw): the slow path is rare.
  if (!/\\ud[89a-f]/i.test(json)) return json;
  // A row's keys outside `columns` hold `undefined` (the shape is its defined keys): omitted here too.
  return JSON.stringify(rows, (_key, value: unknown) =>
    typeof value === "string" ? value.replace(LONE_SURROGATE, "\uFFFD") : value,
  );
}

/**
 * Inserts rows with as few multi-row `INSERT` statements as their shapes allow (rows with the same
 * columns share one; a statement holds at most MAX_VALUES_PER_STATEMENT values). Raw SQL on the
 * driver adapter (server/db-driver.ts), not Prisma's createMany or $executeRaw: the query compiler
 * spent about 0.1 ms per bound value, most of a batched append's time. Values are bound parameters
 * converted by the adapter as Prisma converts them (dates, booleans); the projection tests compare
 * the stored rows with Prisma's own writes. Resolves to the number of statements it ran.
 */
export async function insertRows(
  tx: SqlTx,
  table: BulkTable,
  rows: readonly Record<string, unknown>[],
): Promise<number> {
  const shapes = new Map<string, { columns: string[]; rows: Record<string, unknown>[] }>();
  for (const row of rows) {
    const columns = Object.keys(row).filter((column) => row[column] !== undefined);
    const key = columns.join(",");
    const shape = shapes.get(key) ?? { columns, rows: [] };
    shape.rows.push(row);
    shapes.set(key, shape);
  }
  let statements = 0;
  for (const { columns, rows: same } of shapes.values()) {
    const perStatement = Math.max(1, Math.floor(MAX_VALUES_PER_STATEMENT / columns.length));
    const names = columns.map(quoted).join(", ");
    const tuple = `(${columns.map(() => "?").join(", ")})`;
    for (let start = 0; start < same.length; start += perStatement) {
      const chunk = same.slice(start, start + perStatement);
      if (tx.provider === "postgres")
        await tx.execute(
          `INSERT INTO ${quoted(table)} (${names}) SELECT ${names} FROM json_populate_recordset(NULL::${quoted(table)}, ?::json)`,
          [rowsAsJson(chunk, columns)],
        );
      else
        await tx.execute(
          `INSERT INTO ${quoted(table)} (${names}) VALUES ${chunk.map(() => tuple).join(", ")}`,
          chunk.flatMap((row) => columns.map((column) => row[column] ?? null)),
        );
      statements += 1;
    }
  }
  return statements;
}

/**
 * Sets `data` (columns left `undefined` untouched, as Prisma's updateMany does) on the rows of
 * `table` whose id is in `ids`; resolves to how many rows changed.
 */
export async function updateRows(
  tx: SqlTx,
  table: BulkTable,
  ids: readonly string[],
  data: Record<string, unknown>,
): Promise<number> {
  const columns = Object.keys(data).filter((column) => data[column] !== undefined);
  const perStatement = MAX_VALUES_PER_STATEMENT - columns.length;
  let changed = 0;
  for (let start = 0; start < ids.length; start += perStatement) {
    const chunk = ids.slice(start, start + perStatement);
    const where = `"id" IN (${chunk.map(() => "?").join(", ")})`;
    // With nothing to set (every column left as it is) the row must still exist: count it.
    changed +=
      columns.length === 0
        ? (await tx.query(`SELECT "id" FROM ${quoted(table)} WHERE ${where}`, chunk)).length
        : await tx.execute(
            `UPDATE ${quoted(table)} SET ${columns.map((column) => `${quoted(column)} = ?`).join(", ")} WHERE ${where}`,
            [...columns.map((column) => data[column]), ...chunk],
          );
  }
  return changed;
}
