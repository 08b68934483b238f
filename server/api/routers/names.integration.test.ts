import { existsSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { appRouter } from "@/server/api/root";
import { env } from "@/server/env";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { createTestDb, seedSession } from "@/testing/db/test-db";

// Intent saves mirror into running sessions; there are none here.
vi.mock("@/server/app-context", () => ({ appContext: () => ({ sandboxes: {} }) }));

let db: PrismaClient;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ db, cleanup } = await createTestDb()));
afterEach(async () => cleanup());

const reposDir = path.join(env.dataDir, "repos");
const repositories = () => (existsSync(reposDir) ? readdirSync(reposDir).sort() : []);

const HOSTILE = [
  ["a lone surrogate", "name\uD800", /lone surrogate/],
  ["NUL", "a\u0000b", /control character, U\+0000/],
  ["an ANSI escape", "\u001b[2J\u001b[31mowned", /control character, U\+001B/],
  ["U+202E", "report\u202Efdp.exe", /U\+202E/],
] as const;

describe("names are printable everywhere a person names something", () => {
  it.each(HOSTILE)(
    "project.create refuses %s as BAD_REQUEST and leaves no repository behind",
    async (_n, name, message) => {
      const { user, team } = await seedSession(db, "p");
      const before = repositories();
      await expect(
        appRouter.createCaller({ db, user }).project.create({ teamId: team.id, name }),
      ).rejects.toMatchObject({
        code: "BAD_REQUEST",
        message: expect.stringMatching(message),
      });
      expect(repositories()).toEqual(before);
      expect(await db.project.count({ where: { teamId: team.id } })).toBe(1);
    },
  );

  it.each(HOSTILE)("team.create, sign-up and intents refuse %s", async (_n, name, message) => {
    const { user, project } = await seedSession(db, "t");
    const caller = appRouter.createCaller({ db, user });
    await expect(caller.team.create({ name })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringMatching(message),
    });
    await expect(
      appRouter
        .createCaller({ db, user: null })
        .auth.signUp({ name, email: "x@example.com", password: "long enough" }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringMatching(message) });
    await expect(
      caller.intent.create({
        projectId: project.id,
        intent: { intentId: "INT-001", name, ownedScope: ["src/**"] },
      }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringMatching(message) });
    expect(await db.user.count({ where: { email: "x@example.com" } })).toBe(0);
  });

  it("a project whose row cannot be written takes its new repository with it", async () => {
    const { user, team } = await seedSession(db, "c");
    await db.$executeRawUnsafe(
      `CREATE TRIGGER refuse_project BEFORE INSERT ON Project BEGIN SELECT RAISE(ABORT, 'disk full'); END`,
    );
    const before = repositories();
    await expect(
      appRouter.createCaller({ db, user }).project.create({ teamId: team.id, name: "Fine name" }),
    ).rejects.toThrow();
    expect(repositories()).toEqual(before);
  });

  it("accepts ordinary names in any script, with emoji", async () => {
    const { user, team } = await seedSession(db, "ok");
    const created = await appRouter
      .createCaller({ db, user })
      .project.create({ teamId: team.id, name: "Café 東京 👩‍💻" });
    expect(created.name).toBe("Café 東京 👩‍💻");
    const repo = path.join(reposDir, `${created.id}.git`);
    onTestFinished(() => rmSync(repo, { recursive: true, force: true }));
    expect(existsSync(repo)).toBe(true);
  });
});
