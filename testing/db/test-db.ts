import { createHash, randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { configureSqlite, createDb } from "@/server/db";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { applyPostgresMigrations, postgresMigrations } from "@/server/postgres/migrate";

/** The committed migrations of one provider's folder, in order. */
function migrationSqls(folder: string): string[] {
  const migrationsDir = path.resolve(folder);
  return readdirSync(migrationsDir)
    .filter((entry) => /^\d+_/.test(entry))
    .sort()
    .map((name) => readFileSync(path.join(migrationsDir, name, "migration.sql"), "utf8"));
}

/**
 * A fresh database for integration tests: on PostgreSQL when `postgresUrl` is given (a role that may
 * create databases, see deploy/postgres.sh), otherwise on a SQLite file. `url` is the connection
 * string other processes open.
 */
export async function createTestDbOn(postgresUrl: string | undefined): Promise<{
  db: PrismaClient;
  url: string;
  cleanup: () => Promise<void>;
}> {
  if (postgresUrl) return createPostgresTestDb(postgresUrl);
  const { db, file, cleanup } = await createTestDb();
  return { db, url: `file:${file}`, cleanup };
}

/**
 * A new PostgreSQL database with the committed PostgreSQL migrations applied, copied from a template
 * database that is migrated once per set of migrations (named by their hash). Dropped by `cleanup`.
 */
async function createPostgresTestDb(adminUrl: string) {
  const checksums = postgresMigrations().map((migration) => migration.checksum);
  const template = `arbor_tpl_${createHash("sha256").update(checksums.join("\n")).digest("hex").slice(0, 16)}`;
  const name = `arbor_test_${randomBytes(6).toString("hex")}`;
  const urlOf = (database: string) => {
    const url = new URL(adminUrl);
    url.pathname = `/${database}`;
    return url.toString();
  };
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const exists = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [template]);
    if (exists.rowCount === 0) {
      const building = `${template}_${randomBytes(3).toString("hex")}`;
      await admin.query(`CREATE DATABASE "${building}"`);
      await applyPostgresMigrations(urlOf(building));
      // Renamed only when complete, so a template that exists is always fully migrated.
      await admin.query(`ALTER DATABASE "${building}" RENAME TO "${template}"`).catch(async () => {
        await admin.query(`DROP DATABASE IF EXISTS "${building}"`);
      });
    }
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  } finally {
    await admin.end();
  }
  const url = urlOf(name);
  const db = createDb(url);
  return {
    db,
    url,
    cleanup: async () => {
      await db.$disconnect();
      const drop = new pg.Client({ connectionString: adminUrl });
      await drop.connect();
      await drop.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await drop.end();
    },
  };
}

/**
 * A real SQLite file with the committed migrations applied (the same SQL `prisma migrate deploy`
 * runs), for integration tests. Each call gets its own file, removed by `cleanup`.
 */
export async function createTestDb(): Promise<{
  db: PrismaClient;
  file: string;
  cleanup: () => Promise<void>;
}> {
  const dir = await mkdtemp(path.join(tmpdir(), "arbor-db-"));
  const file = path.join(dir, "test.db");
  const raw = new Database(file);
  for (const sql of migrationSqls("prisma/migrations")) raw.exec(sql);
  raw.close();
  const db = createDb(`file:${file}`);
  await configureSqlite(db);
  return {
    db,
    file,
    cleanup: async () => {
      await db.$disconnect();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A user, team, project and session: the rows an event log hangs off. */
export async function seedSession(db: PrismaClient, suffix = "1") {
  const user = await db.user.create({ data: { email: `user${suffix}@example.com`, name: `User ${suffix}` } });
  const team = await db.team.create({ data: { name: `Team ${suffix}`, personal: true } });
  await db.membership.create({ data: { userId: user.id, teamId: team.id, role: "owner" } });
  const project = await db.project.create({
    data: { name: `Project ${suffix}`, teamId: team.id, repoPath: "/nonexistent.git", createdById: user.id },
  });
  const session = await db.session.create({
    data: { projectId: project.id, createdById: user.id, title: "test", branch: "arbor/test" },
  });
  return { user, team, project, session };
}
