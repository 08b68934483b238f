import "server-only";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { rememberingFactory } from "@/server/db-driver";
import { env, isPostgresUrl } from "@/server/env";
import { PrismaClient } from "@/server/generated/prisma/client";
import { PrismaClient as PostgresPrismaClient } from "@/server/generated/prisma-postgres/client";

/**
 * The one Prisma client. Kept on globalThis because Next.js bundles route handlers and
 * instrumentation separately: without it each bundle would open its own SQLite connection.
 */
const globalForDb = globalThis as unknown as { arborDb?: PrismaClient; arborDbReady?: Promise<void> };

/**
 * A client for `url`: PostgreSQL for postgres(ql)://, otherwise a SQLite file. Prisma generates one
 * client per provider from the same models (prisma/postgres/schema.prisma is derived from
 * prisma/schema.prisma and a unit test keeps them equal), so the PostgreSQL client is typed as the
 * SQLite one: the model API the app uses is the same on both.
 */
export function createDb(url: string): PrismaClient {
  // The adapter is remembered for the event append, which writes through it (server/db-driver.ts).
  if (isPostgresUrl(url)) {
    const { factory, remember } = rememberingFactory(new PrismaPg({ connectionString: url }));
    const client = new PostgresPrismaClient({ adapter: factory }) as unknown as PrismaClient;
    remember(client);
    return client;
  }
  const { factory, remember } = rememberingFactory(new PrismaBetterSQLite3({ url, timeout: 10_000 }));
  const client = new PrismaClient({ adapter: factory });
  remember(client);
  return client;
}

export const db: PrismaClient = globalForDb.arborDb ?? createDb(env.DATABASE_URL);
globalForDb.arborDb = db;

/** WAL lets readers (live views, dashboards) proceed while a run appends events. */
export async function configureSqlite(client: PrismaClient): Promise<void> {
  await client.$queryRawUnsafe("PRAGMA journal_mode=WAL");
  await client.$queryRawUnsafe("PRAGMA foreign_keys=ON");
}

export function dbReady(): Promise<void> {
  globalForDb.arborDbReady ??= isPostgresUrl(env.DATABASE_URL) ? Promise.resolve() : configureSqlite(db);
  return globalForDb.arborDbReady;
}
