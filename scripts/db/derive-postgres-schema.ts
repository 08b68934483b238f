/**
 * The PostgreSQL schema is the SQLite one with two lines changed: the datasource's provider and the
 * generated client's folder. Nothing else differs (the models use no provider-specific types), so
 * it is derived, never edited by hand.
 */
export const SQLITE_SCHEMA = "prisma/schema.prisma";
export const POSTGRES_SCHEMA = "prisma/postgres/schema.prisma";

const HEADER =
  "// GENERATED from prisma/schema.prisma by `npm run db:postgres-schema` — do not edit.\n" +
  "// The same models for PostgreSQL (Prisma fixes the provider per schema file).\n\n";

export function postgresSchemaFrom(sqlite: string): string {
  return (
    HEADER +
    replaceOnce(
      replaceOnce(sqlite, /provider\s*=\s*"sqlite"/, 'provider = "postgresql"'),
      /output\s*=\s*"\.\.\/server\/generated\/prisma"/,
      'output     = "../../server/generated/prisma-postgres"',
    )
  );
}

function replaceOnce(text: string, pattern: RegExp, replacement: string): string {
  const matches = text.match(new RegExp(pattern.source, "g")) ?? [];
  if (matches.length !== 1)
    throw new Error(`${SQLITE_SCHEMA}: expected exactly one ${pattern.source}, found ${matches.length}`);
  return text.replace(pattern, replacement);
}
