import "server-only";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { env } from "@/server/env";
import { PrismaClient } from "@/server/generated/prisma/client";

/**
 * The one Prisma client. Kept on globalThis because Next.js bundles route handlers and
 * instrumentation separately: without it each bundle would open its own SQLite connection.
 */
const globalForDb = globalThis as unknown as { arborDb?: PrismaClient; arborDbReady?: Promise<void> };

export function createDb(url: string): PrismaClient {
  return new PrismaClient({ adapter: new PrismaBetterSQLite3({ url, timeout: 10_000 }) });
}

export const db: PrismaClient = globalForDb.arborDb ?? createDb(env.DATABASE_URL);
globalForDb.arborDb = db;

/** WAL lets readers (live views, dashboards) proceed while a run appends events. */
export async function configureSqlite(client: PrismaClient): Promise<void> {
  await client.$queryRawUnsafe("PRAGMA journal_mode=WAL");
  await client.$queryRawUnsafe("PRAGMA foreign_keys=ON");
}

export function dbReady(): Promise<void> {
  globalForDb.arborDbReady ??= configureSqlite(db);
  return globalForDb.arborDbReady;
}
