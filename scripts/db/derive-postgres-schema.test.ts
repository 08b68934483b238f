import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { POSTGRES_SCHEMA, postgresSchemaFrom, SQLITE_SCHEMA } from "./derive-postgres-schema";

const read = (file: string) => readFileSync(path.resolve(import.meta.dirname, "../..", file), "utf8");

describe("the PostgreSQL schema", () => {
  it("is the SQLite schema with only the provider and the client folder changed (run `npm run db:postgres-schema -- <migration name>` when this fails)", () => {
    expect(read(POSTGRES_SCHEMA)).toBe(postgresSchemaFrom(read(SQLITE_SCHEMA)));
  });

  it("refuses a SQLite schema whose provider line it cannot find, rather than copying it unchanged", () => {
    expect(() => postgresSchemaFrom('datasource db {\n  provider = "mysql"\n}\n')).toThrow(
      /expected exactly one/,
    );
  });
});
