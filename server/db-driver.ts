import "server-only";

/**
 * The driver adapter under a Prisma client, for the event append's hot path: a batched append through
 * Prisma's query compiler spent most of its time compiling each statement's parameters (≈ 0.1 ms per
 * bound value, 20–35 ms for 200 events), so the append runs its few statements on the same adapter
 * connection Prisma uses — the same transaction lock (SQLite's per-connection mutex, a pooled
 * PostgreSQL client) and the same value conversions (dates, booleans) as Prisma's own writes.
 */

/** The part of @prisma/driver-adapter-utils' types the append uses (named here so no import needs it). */
interface ArgType {
  scalarType: "datetime" | "unknown";
  arity: "scalar";
}
interface SqlQuery {
  sql: string;
  args: unknown[];
  argTypes: ArgType[];
}
interface DriverQueryable {
  readonly provider: string;
  queryRaw(query: SqlQuery): Promise<{ columnNames: string[]; rows: unknown[][] }>;
  executeRaw(query: SqlQuery): Promise<number>;
}
interface DriverTransaction extends DriverQueryable {
  readonly options: { usePhantomQuery: boolean };
  commit(): Promise<void>;
  rollback(): Promise<void>;
}
interface DriverAdapter extends DriverQueryable {
  startTransaction(): Promise<DriverTransaction>;
}
interface DriverAdapterFactory {
  connect(): Promise<DriverAdapter>;
}

/** Statements inside one driver transaction; `?` marks each bound value, in order, on both databases. */
export interface SqlTx {
  /** Which database runs the statements, for the few that are written differently on each. */
  readonly provider: "sqlite" | "postgres";
  execute(sql: string, args: readonly unknown[]): Promise<number>;
  query<Row extends Record<string, unknown>>(sql: string, args: readonly unknown[]): Promise<Row[]>;
}

const connected = new WeakMap<object, () => Promise<DriverAdapter>>();

/**
 * Wraps an adapter factory so the adapter Prisma connects is remembered for `client` (see
 * `withDriverTransaction`). Call `remember` with the client made from the returned factory.
 */
export function rememberingFactory<F extends object>(
  factory: F,
): { factory: F; remember(client: object): void } {
  const inner = factory as unknown as DriverAdapterFactory;
  let adapter: Promise<DriverAdapter> | null = null;
  const wrapped = new Proxy(factory, {
    get(target, property, receiver) {
      if (property !== "connect") return Reflect.get(target, property, receiver);
      return () => {
        adapter = inner.connect.call(target);
        return adapter;
      };
    },
  });
  return {
    factory: wrapped,
    remember(client) {
      connected.set(client, async () => {
        // Prisma connects its adapter lazily: make it connect, then use the adapter it made.
        if (adapter === null) await (client as { $connect(): Promise<void> }).$connect();
        if (adapter === null) throw new Error("the Prisma client connected no driver adapter");
        return adapter;
      });
    },
  };
}

/** `?` placeholders as the provider writes them ($1, $2… on PostgreSQL), outside string literals we never write. */
function placeholders(sql: string, provider: string): string {
  if (provider !== "postgres") return sql;
  let index = 0;
  return sql.replace(/\?/g, () => `$${++index}`);
}

/**
 * A date as the SQLite adapter writes it with its default `timestampFormat` ("iso8601", which
 * server/db.ts keeps): what Prisma's own writes store, so raw reads and comparisons see one format.
 */
const sqliteTimestamp = (date: Date) => date.toISOString().replace("Z", "+00:00");

/**
 * `values` with each Date replaced by `format(date)`, each Date object formatted once in a row: a
 * batch's rows share one `createdAt`, and formatting a Date costs about 2 µs (JSON.stringify calls each
 * one's toJSON; the SQLite adapter parses a date string back into a Date before formatting it) — about
 * 1 ms of a 200-event append.
 */
export function datesFormattedOnce(values: readonly unknown[], format: (date: Date) => string): unknown[] {
  let last: Date | null = null;
  let lastText = "";
  return values.map((value) => {
    if (!(value instanceof Date)) return value;
    if (value !== last) {
      last = value;
      lastText = format(value);
    }
    return lastText;
  });
}

const UNKNOWN: ArgType = { scalarType: "unknown", arity: "scalar" };
const DATETIME: ArgType = { scalarType: "datetime", arity: "scalar" };

function queryOf(sql: string, args: readonly unknown[], provider: string): SqlQuery {
  if (provider === "postgres")
    return {
      sql: placeholders(sql, provider),
      args: args.map((arg) => (arg instanceof Date ? arg.toISOString() : arg)),
      argTypes: args.map((arg) => (arg instanceof Date ? DATETIME : UNKNOWN)),
    };
  // On SQLite a date goes as the text the adapter would make of it, not as a Date for it to format.
  return {
    sql,
    args: datesFormattedOnce(args, sqliteTimestamp),
    argTypes: args.map(() => UNKNOWN),
  };
}

function adapterOf(client: object): Promise<DriverAdapter> {
  const connect = connected.get(client);
  if (!connect) throw new Error("this Prisma client was not made by createDb (server/db.ts)");
  return connect();
}

function sqlOn(queryable: DriverQueryable): SqlTx {
  const provider = queryable.provider;
  return {
    provider: provider === "postgres" ? "postgres" : "sqlite",
    execute: (sql, args) => queryable.executeRaw(queryOf(sql, args, provider)),
    async query<Row extends Record<string, unknown>>(sql: string, args: readonly unknown[]) {
      const { columnNames, rows } = await queryable.queryRaw(queryOf(sql, args, provider));
      return rows.map((row) => Object.fromEntries(columnNames.map((name, i) => [name, row[i]])) as Row);
    },
  };
}

/**
 * Statements on `client`'s driver adapter outside any transaction: each is its own (autocommit), on
 * whichever pooled connection is free. For a write that is one statement (server/events/store.ts).
 */
export async function driverStatements(client: object): Promise<SqlTx> {
  return sqlOn(await adapterOf(client));
}

/**
 * Runs `work` in one transaction on `client`'s driver adapter, committed when it resolves and rolled
 * back when it throws — the way Prisma's own interactive transactions drive the adapter.
 */
export async function withDriverTransaction<T>(client: object, work: (tx: SqlTx) => Promise<T>): Promise<T> {
  const transaction = await (await adapterOf(client)).startTransaction();
  const tx = sqlOn(transaction);
  const end = async (statement: "COMMIT" | "ROLLBACK") => {
    if (!transaction.options.usePhantomQuery)
      await transaction.executeRaw({ sql: statement, args: [], argTypes: [] });
    await (statement === "COMMIT" ? transaction.commit() : transaction.rollback());
  };
  let result: T;
  try {
    result = await work(tx);
  } catch (error) {
    try {
      await end("ROLLBACK");
    } catch {
      // The work's error is the one to report; a failed rollback leaves nothing committed.
    }
    throw error;
  }
  await end("COMMIT");
  return result;
}
