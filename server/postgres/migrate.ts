import { createHash, randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";

/**
 * Applies the committed PostgreSQL migrations (prisma/postgres/migrations) to the database at `url`,
 * recording them in Prisma's own `_prisma_migrations` table exactly as `prisma migrate deploy` does
 * (same columns, the file's SHA-256 as checksum), so Prisma's tools agree about what is applied.
 *
 * Why not `prisma migrate deploy`: Prisma 6.19's JS schema engine reads PostgreSQL's catalog through
 * @prisma/adapter-pg, which cannot decode the catalog's `name` column type ("Column type 'name'
 * could not be deserialized", prisma/orm#27403), and the native engine cannot be downloaded here.
 *
 * Several instances may start at once: Prisma's advisory lock key serialises them, and each migration
 * runs in its own transaction (PostgreSQL's DDL is transactional), so a failed one leaves nothing.
 */
const PRISMA_MIGRATE_LOCK = 72707369;

export const POSTGRES_MIGRATIONS = "prisma/postgres/migrations";

interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export function postgresMigrations(folder = POSTGRES_MIGRATIONS): Migration[] {
  const dir = path.resolve(folder);
  return readdirSync(dir)
    .filter((entry) => /^\d+_/.test(entry))
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

/** Applies what is missing; returns the names applied now (empty when the database was current). */
export async function applyPostgresMigrations(url: string, folder = POSTGRES_MIGRATIONS): Promise<string[]> {
  const migrations = postgresMigrations(folder);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [PRISMA_MIGRATE_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" VARCHAR(36) PRIMARY KEY NOT NULL,
      "checksum" VARCHAR(64) NOT NULL,
      "finished_at" TIMESTAMPTZ,
      "migration_name" VARCHAR(255) NOT NULL,
      "logs" TEXT,
      "rolled_back_at" TIMESTAMPTZ,
      "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
      "applied_steps_count" INTEGER NOT NULL DEFAULT 0
    )`);
    const { rows } = await client.query<{
      migration_name: string;
      checksum: string;
      finished_at: Date | null;
    }>(
      `SELECT "migration_name", "checksum", "finished_at" FROM "_prisma_migrations" WHERE "rolled_back_at" IS NULL`,
    );
    const applied = new Map(rows.map((row) => [row.migration_name, row]));
    const done: string[] = [];
    for (const migration of migrations) {
      const row = applied.get(migration.name);
      if (row?.finished_at === null)
        throw new Error(
          `migration ${migration.name} started and did not finish: resolve it before going on.`,
        );
      if (row && row.checksum !== migration.checksum)
        throw new Error(
          `migration ${migration.name} was changed after it was applied: add a new migration instead.`,
        );
      if (row) continue;
      await client.query("BEGIN");
      try {
        const id = randomUUID();
        await client.query(
          `INSERT INTO "_prisma_migrations" ("id", "checksum", "migration_name") VALUES ($1, $2, $3)`,
          [id, migration.checksum, migration.name],
        );
        await client.query(migration.sql);
        await client.query(
          `UPDATE "_prisma_migrations" SET "finished_at" = now(), "applied_steps_count" = 1 WHERE "id" = $1`,
          [id],
        );
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw new Error(`migration ${migration.name} failed and was rolled back: ${String(error)}`);
      }
      done.push(migration.name);
    }
    return done;
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [PRISMA_MIGRATE_LOCK]).catch(() => undefined);
    await client.end();
  }
}
