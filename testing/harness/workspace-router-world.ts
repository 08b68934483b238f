import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { workspaceRouter } from "@/server/api/routers/workspace";
import { EventStore } from "@/server/events/store";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { createEmptyRepository } from "@/server/projects/git-repository";
import { DockerSandboxProvider } from "@/server/sandbox";
import type { Sandbox } from "@/server/sandbox/types";
import { createTestDb, seedSession } from "@/testing/db/test-db";

/**
 * What the Files card's router tests share: a project repository (a README whose title is
 * `repoName`), and for each test a fresh SQLite database with a seeded session, its real Docker
 * sandbox (a clone on `branch`) and its event store, handed to the router through the app context.
 * The test file keeps the `vi.mock` of `@/server/app-context` (vitest hoists it per file) and passes
 * its hoisted holder here.
 */
export function workspaceRouterWorld(
  app: { current: Record<string, unknown> },
  options: { repoName: string; seed: string; branch: string },
) {
  const sandboxes = new DockerSandboxProvider();
  let repoDir: string;
  let repoPath: string;
  let db: PrismaClient;
  let store: EventStore;
  let sandbox: Sandbox;
  let seeded: Awaited<ReturnType<typeof seedSession>>;

  beforeAll(async () => {
    repoDir = await mkdtemp(path.join(tmpdir(), `arbor-${options.seed}-`));
    repoPath = path.join(repoDir, "project.git");
    await createEmptyRepository(repoPath, options.repoName);
  });
  afterAll(async () => rm(repoDir, { recursive: true, force: true }));

  beforeEach(async () => {
    const created = await createTestDb();
    db = created.db;
    seeded = await seedSession(db, options.seed);
    store = new EventStore(db);
    sandbox = await sandboxes.create({ sessionId: seeded.session.id, repoPath, branch: options.branch });
    app.current = { sandboxes, store };
    return async () => {
      await sandbox.dispose();
      await created.cleanup();
    };
  }, 60_000);

  return {
    get db() {
      return db;
    },
    get store() {
      return store;
    },
    get sandbox() {
      return sandbox;
    },
    get seeded() {
      return seeded;
    },
    sessionId: () => seeded.session.id,
    /** The router as the session's owner (the seeded user). */
    owner: () => workspaceRouter.createCaller({ db, user: seeded.user }),
    /** The router as a new user who is a viewer of the session's team. */
    async viewer() {
      const watcher = await db.user.create({ data: { email: "watcher@example.com", name: "Watcher" } });
      await db.membership.create({ data: { userId: watcher.id, teamId: seeded.team.id, role: "viewer" } });
      return workspaceRouter.createCaller({ db, user: watcher });
    },
    exists: async (file: string) => (await sandbox.exec(`test -e '${file}'; echo $?`)).stdout === "0\n",
    /** The bodies of the session's events of one type, in order. */
    eventsOf: async (type: string) =>
      (await store.read(seeded.session.id))
        .filter((event) => event.body.type === type)
        .map((event) => event.body),
  };
}
