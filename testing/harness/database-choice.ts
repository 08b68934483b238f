import { inject } from "vitest";
import { createTestDbOn, seedSession } from "@/testing/db/test-db";

declare module "vitest" {
  export interface ProvidedContext {
    /** Set by the `integration-postgres` project (vitest.config.ts): those tests run on PostgreSQL. */
    postgresUrl: string;
  }
}

/** The PostgreSQL admin URL when this test file runs in the PostgreSQL project, else undefined (SQLite). */
export function testPostgresUrl(): string | undefined {
  return inject("postgresUrl") || undefined;
}

/** Which database a test name should mention. */
export function testDatabaseName(): string {
  return testPostgresUrl() ? "PostgreSQL" : "SQLite";
}

/**
 * For a test that exists only on PostgreSQL (server/postgres/): a new database of the test cluster
 * with one seeded session.
 */
export async function seededPostgresDb() {
  const url = testPostgresUrl();
  if (!url) throw new Error("this test runs in the integration-postgres project only");
  const created = await createTestDbOn(url);
  return { ...created, sessionId: (await seedSession(created.db)).session.id };
}
