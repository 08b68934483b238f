import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { configureSqlite, createDb } from "@/server/db";
import type { PrismaClient } from "@/server/generated/prisma/client";

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
  const migrationsDir = path.resolve("prisma/migrations");
  for (const name of readdirSync(migrationsDir)
    .filter((entry) => /^\d+_/.test(entry))
    .sort()) {
    raw.exec(readFileSync(path.join(migrationsDir, name, "migration.sql"), "utf8"));
  }
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
