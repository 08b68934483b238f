import { beforeEach, describe, expect, it, vi } from "vitest";
import { sessionRouter } from "@/server/api/routers/session";
import { workRouter } from "@/server/api/routers/work";
import { EventStore } from "@/server/events/store";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { createTestDb, seedSession } from "@/testing/db/test-db";
import { model } from "@/testing/events/events";

// The routers reach the event store and the restart through the app context.
const app = vi.hoisted(() => ({
  store: null as unknown,
  restartSandbox: null as null | ((sessionId: string, by: { name: string }) => Promise<unknown>),
}));
vi.mock("@/server/app-context", () => ({ appContext: () => app }));

/**
 * A lost sandbox through the API (several Docker hosts, README "Docker hosts"): the project's session
 * list shows SANDBOX_LOST until a restart, and the restart is a member's action on their own session,
 * refused on a server with one Docker engine.
 */
let db: PrismaClient;
beforeEach(async () => {
  const created = await createTestDb();
  db = created.db;
  app.store = new EventStore(db);
  app.restartSandbox = null;
  return () => created.cleanup();
});

describe("a lost sandbox through the API", () => {
  it("shows SANDBOX_LOST in the session list until the sandbox is restarted", async () => {
    const { user, project, session } = await seedSession(db);
    const store = app.store as EventStore;
    await store.append(session.id, [{ type: "run-started", runId: "r1", task: "t", mode: "agent", model }]);
    const list = () => sessionRouter.createCaller({ db, user }).list({ projectId: project.id });
    expect((await list())[0]).toMatchObject({ sandboxLost: false, latest: { shown: "WORKING" } });
    await store.append(session.id, [
      { type: "sandbox-lost", host: "10.0.0.2:2376", message: "gone", lastSnapshot: null, unsaved: ["t"] },
    ]);
    expect((await list())[0]).toMatchObject({ sandboxLost: true, latest: { shown: "SANDBOX_LOST" } });
    await store.append(session.id, [
      {
        type: "sandbox-restarted",
        fromHost: "10.0.0.2:2376",
        toHost: "local",
        by: { name: "A" },
        snapshot: null,
      },
    ]);
    expect((await list())[0]).toMatchObject({ sandboxLost: false, latest: { shown: "WORKING" } });
  });

  it("restarts only for a member of the session's team, and not with one Docker engine", async () => {
    const { user, session } = await seedSession(db);
    await expect(
      workRouter.createCaller({ db, user }).restartSandbox({ sessionId: session.id }),
    ).rejects.toMatchObject({
      code: "PRECONDITION_FAILED",
      message: expect.stringMatching(/one Docker engine/),
    });

    const restarts: Array<[string, string]> = [];
    app.restartSandbox = async (sessionId, by) => {
      restarts.push([sessionId, by.name]);
      return { host: "local", snapshot: null };
    };
    const stranger = await seedSession(db, "stranger");
    await expect(
      workRouter.createCaller({ db, user: stranger.user }).restartSandbox({ sessionId: session.id }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    // A viewer of the team may watch the session, not restart its sandbox.
    const viewer = await db.user.create({ data: { email: "viewer@example.com", name: "Viewer" } });
    const { team } = await db.project.findFirstOrThrow({
      where: { id: session.projectId },
      select: { team: true },
    });
    await db.membership.create({ data: { userId: viewer.id, teamId: team.id, role: "viewer" } });
    await expect(
      workRouter.createCaller({ db, user: viewer }).restartSandbox({ sessionId: session.id }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(restarts).toEqual([]);
    expect(await workRouter.createCaller({ db, user }).restartSandbox({ sessionId: session.id })).toEqual({
      host: "local",
      snapshot: null,
    });
    expect(restarts).toEqual([[session.id, user.name]]);
  });
});
