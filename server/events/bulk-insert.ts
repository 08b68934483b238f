import "server-only";
import { datesFormattedOnce, type SqlTx } from "@/server/db-driver";

/** The tables the append writes in bulk: a fixed list, so a name is never built from input. */
export type BulkTable = "Event" | "Run" | "Intention" | "Message" | "Approval" | "Cycle" | "WebhookDelivery";

/** Under SQLite's (32 766) and PostgreSQL's (65 535) limits on bound values per statement. */
export const MAX_VALUES_PER_STATEMENT = 30_000;

/** A column name from a projection mapper or the store (code, never input), quoted for both databases. */
const quoted = (column: string) => `"${column.replace(/"/g, '""')}"`;

/**
 * Each column's array type as PostgreSQL names it (`integer[]`, `timestamp(3) without time zone[]`,
 * `text[]`…), read once per table from the catalog: the migrations fix them, so one read serves every
 * database this process writes to. Read inside the caller's transaction (a plain catalog select).
 */
const arrayTypes = new Map<BulkTable, Promise<Map<string, string>>>();

function arrayTypesOf(tx: SqlTx, table: BulkTable): Promise<Map<string, string>> {
  let types = arrayTypes.get(table);
  if (!types) {
    types = tx
      .query<{ column: string; type: string }>(
        `SELECT a.attname::text AS "column", format_type(t.typarray, a.atttypmod) AS "type"
           FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
          WHERE a.attrelid = to_regclass(?) AND a.attnum > 0 AND NOT a.attisdropped`,
        [quoted(table)],
      )
      .then((rows) => new Map(rows.map((row) => [row.column, row.type])));
    // A failed read (a rolled-back transaction, a missing table) is not kept: the next append reads again.
    types.catch(() => arrayTypes.delete(table));
    arrayTypes.set(table, types);
  }
  return types;
}

/** In JSON text, an escape that means something else in an array literal (`\n`, `\u0000`…). */
const JSON_ONLY_ESCAPE = /\\[bfnrtu]/;

/**
 * A column's values as one PostgreSQL array literal (`{"a","b\\"c",null}`), cast by the statement to
 * the column's array type, so the element type's own input parses each element (ints, booleans,
 * timestamps, text alike). Built here rather than by node-pg's array encoding, which escapes element by
 * element in JavaScript (most of the statement's client time) and writes a Date in the process's local
 * time. A Date goes as its ISO string in UTC (what Prisma stores in `timestamp(3)`; PostgreSQL ignores
 * the `Z` for a timestamp without time zone). The literal goes as UTF-8 like any bound string, which
 * turns a lone UTF-16 surrogate into U+FFFD, as a scalar parameter's encoding does.
 */
function arrayLiteral(values: readonly unknown[]): string {
  for (const value of values)
    if (typeof value === "object" && value !== null && !(value instanceof Date))
      throw new Error("a bulk-inserted column holds an object, not a value");
  // JSON's array text is an array literal when it has no escape but `\"` and `\\` (which mean the
  // same in both): strings quoted, numbers and booleans bare, `null` read as NULL. Natively fast.
  const texts = datesFormattedOnce(values, (date) => date.toISOString());
  const json = JSON.stringify(texts);
  if (!JSON_ONLY_ESCAPE.test(json)) return `{${json.slice(1, -1)}}`;
  // Otherwise (a newline, a control character, a lone surrogate): each element quoted here.
  const elements = texts.map((value) => {
    if (value === null || value === undefined) return "NULL";
    return `"${String(value).replace(/[\\"]/g, "\\$&")}"`;
  });
  return `{${elements.join(",")}}`;
}

/** One statement and its bound values (`?` each), built here and run by the caller. */
export interface Statement {
  sql: string;
  args: unknown[];
}

/**
 * An update and the number of rows it must change (the ids it names): run alone, its row count is
 * compared; inside one combined statement (server/events/one-statement-append.ts), its `RETURNING`
 * rows are counted.
 */
export interface UpdateStatement extends Statement {
  table: BulkTable;
  ids: readonly string[];
}

async function unnestInsert(
  tx: SqlTx,
  table: BulkTable,
  columns: string[],
  rows: readonly Record<string, unknown>[],
  gate: string,
): Promise<Statement> {
  const types = await arrayTypesOf(tx, table);
  const casts = columns.map((column) => {
    const type = types.get(column);
    if (!type) throw new Error(`no column ${table}.${column} in the database`);
    return `?::${type}`;
  });
  const names = columns.map(quoted).join(", ");
  return {
    sql: `INSERT INTO ${quoted(table)} (${names}) SELECT * FROM unnest(${casts.join(", ")})${gate ? ` WHERE ${gate}` : ""}`,
    args: columns.map((column) => arrayLiteral(rows.map((row) => row[column] ?? null))),
  };
}

/**
 * The statements that insert `rows`: as few multi-row `INSERT`s as their shapes allow (rows with the
 * same columns share one; a statement holds at most MAX_VALUES_PER_STATEMENT values). On SQLite the
 * values are bound parameters converted by the adapter as Prisma converts them (dates, booleans); on
 * PostgreSQL each column is one array parameter, cast to the column's type and spread by `unnest`
 * (one parameter per column whatever the row count, no per-statement plan for a long VALUES list).
 * `gate` (PostgreSQL only): a condition each row is inserted under, for a combined statement.
 */
export async function insertStatements(
  tx: SqlTx,
  table: BulkTable,
  rows: readonly Record<string, unknown>[],
  gate = "",
): Promise<Statement[]> {
  const shapes = new Map<string, { columns: string[]; rows: Record<string, unknown>[] }>();
  for (const row of rows) {
    const columns = Object.keys(row).filter((column) => row[column] !== undefined);
    const key = columns.join(",");
    const shape = shapes.get(key) ?? { columns, rows: [] };
    shape.rows.push(row);
    shapes.set(key, shape);
  }
  const statements: Statement[] = [];
  for (const { columns, rows: same } of shapes.values()) {
    const perStatement = Math.max(1, Math.floor(MAX_VALUES_PER_STATEMENT / columns.length));
    const names = columns.map(quoted).join(", ");
    const tuple = `(${columns.map(() => "?").join(", ")})`;
    for (let start = 0; start < same.length; start += perStatement) {
      const chunk = same.slice(start, start + perStatement);
      statements.push(
        tx.provider === "postgres"
          ? await unnestInsert(tx, table, columns, chunk, gate)
          : {
              sql: `INSERT INTO ${quoted(table)} (${names}) VALUES ${chunk.map(() => tuple).join(", ")}`,
              args: chunk.flatMap((row) => columns.map((column) => row[column] ?? null)),
            },
      );
    }
  }
  return statements;
}

/**
 * Inserts rows (see `insertStatements`). Raw SQL on the driver adapter (server/db-driver.ts), not
 * Prisma's createMany or $executeRaw: the query compiler spent about 0.1 ms per bound value, most of a
 * batched append's time. The projection tests compare the stored rows with Prisma's own writes.
 * Resolves to the number of statements it ran.
 */
export async function insertRows(
  tx: SqlTx,
  table: BulkTable,
  rows: readonly Record<string, unknown>[],
): Promise<number> {
  const statements = await insertStatements(tx, table, rows);
  for (const { sql, args } of statements) await tx.execute(sql, args);
  return statements.length;
}

/**
 * The statements that set `data` (columns left `undefined` untouched, as Prisma's updateMany does) on
 * the rows of `table` whose id is in `ids`. With nothing to set (every column left as it is) the rows
 * must still exist: the statement selects them, to be counted. `gate` as in `insertStatements`; a
 * gated update returns a row per row it changed.
 */
export function updateStatements(
  table: BulkTable,
  ids: readonly string[],
  data: Record<string, unknown>,
  gate = "",
): UpdateStatement[] {
  const columns = Object.keys(data).filter((column) => data[column] !== undefined);
  const perStatement = MAX_VALUES_PER_STATEMENT - columns.length;
  const statements: UpdateStatement[] = [];
  for (let start = 0; start < ids.length; start += perStatement) {
    const chunk = ids.slice(start, start + perStatement);
    const where = `"id" IN (${chunk.map(() => "?").join(", ")})`;
    statements.push(
      columns.length === 0
        ? { table, ids: chunk, sql: `SELECT "id" FROM ${quoted(table)} WHERE ${where}`, args: chunk }
        : {
            table,
            ids: chunk,
            sql:
              `UPDATE ${quoted(table)} SET ${columns.map((column) => `${quoted(column)} = ?`).join(", ")} WHERE ${where}` +
              (gate ? ` AND ${gate} RETURNING 1` : ""),
            args: [...columns.map((column) => data[column]), ...chunk],
          },
    );
  }
  return statements;
}

/** Runs an update statement alone; resolves to how many rows it changed (or, with no column set, found). */
export async function runUpdate(tx: SqlTx, { sql, args }: Statement): Promise<number> {
  return sql.startsWith("SELECT") ? (await tx.query(sql, args)).length : tx.execute(sql, args);
}
