import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { inboxRouter } from "@/server/api/routers/inbox";
import type { EventInput } from "@/server/domain/events/schema";
import { EventStore } from "@/server/events/store";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { createTestDb, seedSession } from "@/testing/db/test-db";
import { waitingRun } from "@/testing/events/capture-events";

let db: PrismaClient;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ db, cleanup } = await createTestDb());
});
afterEach(async () => cleanup());

const ID_KEYS = new Set(["runId", "intentionId", "parentId", "approvalId", "messageId"]);
function withIds(events: EventInput[], suffix: string): EventInput[] {
  return JSON.parse(JSON.stringify(events), (key, value) =>
    ID_KEYS.has(key) && typeof value === "string" ? `${value}-${suffix}` : value,
  ) as EventInput[];
}

describe("approvals inbox", () => {
  it("lists the questions waiting in running sessions of the caller's teams, to those who may answer", async () => {
    const mine = await seedSession(db, "mine");
    const theirs = await seedSession(db, "theirs");
    const store = new EventStore(db);
    await store.append(mine.session.id, withIds(waitingRun, "a"));
    // A second session whose run was stopped while its question waited: nothing to answer any more.
    const stopped = await db.session.create({
      data: { projectId: mine.project.id, createdById: mine.user.id, title: "stopped", branch: "arbor/s" },
    });
    await store.append(stopped.id, [
      ...withIds(waitingRun, "b"),
      { type: "run-ended", runId: "run-2-b", status: "STOPPED", reason: "stopped" },
    ]);
    await store.append(theirs.session.id, withIds(waitingRun, "c"));

    const inbox = await inboxRouter.createCaller({ db, user: mine.user }).pending();
    expect(inbox.total).toBe(1);
    expect(inbox.items).toEqual([
      expect.objectContaining({
        approvalId: "ap2-a",
        kind: "decomposition",
        sessionId: mine.session.id,
        projectId: mine.project.id,
        projectName: "Project mine",
        what: "run `c` and `d`",
        command: null,
      }),
    ]);

    // A viewer of the team watches; the inbox is for people who can answer.
    const viewer = await db.user.create({ data: { email: "v@example.com", name: "Viewer" } });
    await db.membership.create({ data: { userId: viewer.id, teamId: mine.team.id, role: "viewer" } });
    expect((await inboxRouter.createCaller({ db, user: viewer }).pending()).total).toBe(0);

    // Answered: gone from the inbox.
    await store.append(mine.session.id, [
      {
        type: "approval-decided",
        runId: "run-2-a",
        approvalId: "ap2-a",
        decision: "approved",
        decidedBy: { userId: mine.user.id, name: mine.user.name },
        reason: null,
      },
    ]);
    expect((await inboxRouter.createCaller({ db, user: mine.user }).pending()).items).toEqual([]);
  });

  it("refuses an anonymous caller", async () => {
    await expect(inboxRouter.createCaller({ db, user: null }).pending()).rejects.toMatchObject({
      code: "UNAUTHORIZED",
    });
  });
});
