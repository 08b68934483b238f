import { inject } from "vitest";

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
