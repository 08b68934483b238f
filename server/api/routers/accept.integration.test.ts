import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { runRouter } from "@/server/api/routers/run";
import { readAllEvents } from "@/server/capture/read";
import type { EventInput } from "@/server/domain/events/schema";
import { foldEvents } from "@/server/domain/session/fold";
import type { EventLog } from "@/server/events/log";
import { EventStore } from "@/server/events/store";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { acceptIntention } from "@/server/orchestrator/accept-intention";
import { createTestDb, seedSession } from "@/testing/db/test-db";
import { cycle, decomposedRun, requestedCycle } from "@/testing/events/events";

// The router reaches the event store through the app context: here the real store on the test database.
const app = vi.hoisted(() => ({ store: null as unknown }));
vi.mock("@/server/app-context", () => ({ appContext: () => app }));

let db: PrismaClient;
let cleanup: () => Promise<void>;
let store: EventStore;

beforeEach(async () => {
  ({ db, cleanup } = await createTestDb());
  store = new EventStore(db);
  app.store = store;
});
afterEach(async () => cleanup());

/** c1 succeeded with no check (FAILED: not verified), c2 ran as requested (VERIFIED); `ended` ends the run. */
function runWithUncheckedNode(ended: boolean): EventInput[] {
  return [
    ...decomposedRun(),
    ...cycle("run-1", "c1", "cy1", 0),
    {
      type: "intention-status-changed",
      runId: "run-1",
      intentionId: "c1",
      status: "FAILED",
      reason: "no check — not verified: nothing checkable was named for this intention, and no check ran",
    },
    ...requestedCycle("run-1", "c2", "cy2", "b"),
    {
      type: "intention-status-changed",
      runId: "run-1",
      intentionId: "c2",
      status: "VERIFIED",
      reason: "`b` ran exactly as requested and exited 0",
      evidence: "ran-as-requested",
    },
    ...(ended
      ? ([
          {
            type: "intention-status-changed",
            runId: "run-1",
            intentionId: "root",
            status: "FAILED",
            reason: "c1",
          },
          { type: "run-ended", runId: "run-1", status: "FAILED", reason: "c1 not verified" },
        ] satisfies EventInput[])
      : []),
  ];
}

describe("accept as verified", () => {
  it("a member accepts a node that failed for want of evidence: recorded with their name and reason", async () => {
    const { session, team } = await seedSession(db, "accept");
    const user = await db.user.create({ data: { email: "m@example.com", name: "Grace" } });
    await db.membership.create({ data: { userId: user.id, teamId: team.id, role: "member" } });
    await store.append(session.id, runWithUncheckedNode(true));
    const caller = runRouter.createCaller({ db, user });

    await expect(
      caller.acceptAsVerified({ sessionId: session.id, intentionId: "c1", reason: "   " }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await caller.acceptAsVerified({ sessionId: session.id, intentionId: "c1", reason: "checked it by hand" });

    const events = await readAllEvents(store, session.id);
    expect(events.at(-1)?.body).toEqual({
      type: "intention-status-changed",
      runId: "run-1",
      intentionId: "c1",
      status: "VERIFIED",
      reason: `accepted by ${user.name}: checked it by hand`,
      evidence: "accepted-by-person",
      acceptedBy: { userId: user.id, name: user.name },
    });
    const view = foldEvents(events);
    expect(view.intentions.c1).toMatchObject({
      status: "VERIFIED",
      evidence: "accepted-by-person",
      acceptedBy: user.name,
    });
    // Only that node: the root and the run keep the outcome they ended with.
    expect(view.intentions.root?.status).toBe("FAILED");
    expect(view.runs["run-1"]?.status).toBe("FAILED");
    // The projection follows the log.
    expect(await db.intention.findUnique({ where: { id: "c1" } })).toMatchObject({ status: "VERIFIED" });

    // Now verified: a second acceptance is refused, as is a node verified on a check.
    for (const intentionId of ["c1", "c2", "root"])
      await expect(
        caller.acceptAsVerified({ sessionId: session.id, intentionId, reason: "again" }),
      ).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(
      caller.acceptAsVerified({ sessionId: session.id, intentionId: "nope", reason: "x" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND", message: "That node does not exist in this session." });
  });

  it("refuses a node of a running run, viewers, and other teams, and appends nothing", async () => {
    const { user, session, team } = await seedSession(db, "running");
    await store.append(session.id, runWithUncheckedNode(false));
    const before = (await readAllEvents(store, session.id)).length;

    await expect(
      runRouter
        .createCaller({ db, user })
        .acceptAsVerified({ sessionId: session.id, intentionId: "c1", reason: "looks fine" }),
    ).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringContaining("still running") });

    const viewer = await db.user.create({ data: { email: "v@example.com", name: "Viewer" } });
    await db.membership.create({ data: { userId: viewer.id, teamId: team.id, role: "viewer" } });
    await expect(
      runRouter
        .createCaller({ db, user: viewer })
        .acceptAsVerified({ sessionId: session.id, intentionId: "c1", reason: "looks fine" }),
    ).rejects.toMatchObject({ code: "FORBIDDEN", message: expect.stringContaining("Viewers") });

    const stranger = await seedSession(db, "stranger");
    await expect(
      runRouter
        .createCaller({ db, user: stranger.user })
        .acceptAsVerified({ sessionId: session.id, intentionId: "c1", reason: "looks fine" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });

    expect(await readAllEvents(store, session.id)).toHaveLength(before);
  });

  it("two people accepting the same node at once: exactly one acceptance, the other is told who accepted it", async () => {
    const { session, team } = await seedSession(db, "race");
    const people = await Promise.all(
      ["Grace", "Linus", "Barbara", "Edsger"].map(async (name) => {
        const user = await db.user.create({ data: { email: `${name}@example.com`, name } });
        await db.membership.create({ data: { userId: user.id, teamId: team.id, role: "member" } });
        return user;
      }),
    );
    await store.append(session.id, runWithUncheckedNode(true));

    const results = await Promise.allSettled(
      people.map((user) =>
        runRouter
          .createCaller({ db, user })
          .acceptAsVerified({ sessionId: session.id, intentionId: "c1", reason: `checked by ${user.name}` }),
      ),
    );
    const events = await readAllEvents(store, session.id);
    const acceptances = events.filter(
      (event) =>
        event.body.type === "intention-status-changed" && event.body.evidence === "accepted-by-person",
    );
    expect(acceptances).toHaveLength(1);
    const winner = foldEvents(events).intentions.c1?.acceptedBy;
    expect(people.map((user) => user.name)).toContain(winner);
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    for (const result of results.filter((entry) => entry.status === "rejected"))
      expect((result as PromiseRejectedResult).reason).toMatchObject({
        code: "CONFLICT",
        message: `${winner} already accepted it as verified; nothing was changed.`,
      });
  });

  it("decides again on what the log says when it changed between the read and the write", async () => {
    const { session, user } = await seedSession(db, "meanwhile");
    // The run is still running when the person reads the log; it ends just before their write lands.
    const running = runWithUncheckedNode(false);
    await store.append(session.id, running);
    let interleave: (() => Promise<unknown>) | null = null;
    const racing: EventLog = {
      read: (sessionId, afterSeq, limit) => store.read(sessionId, afterSeq, limit),
      async append(sessionId, bodies, options) {
        const before = interleave;
        interleave = null;
        await before?.();
        return store.append(sessionId, bodies, options);
      },
    };
    const accept = (reason: string, name = user.name) =>
      acceptIntention(racing, {
        sessionId: session.id,
        intentionId: "c1",
        reason,
        actor: { userId: user.id, name },
      });

    // Still running at the read: refused before any write is tried.
    await expect(accept("too early")).rejects.toMatchObject({
      message: expect.stringContaining("still running"),
    });
    await store.append(session.id, runWithUncheckedNode(true).slice(running.length));

    // Someone else's acceptance lands between this person's read and write: theirs is refused, by name.
    interleave = () =>
      acceptIntention(store, {
        sessionId: session.id,
        intentionId: "c1",
        reason: "first",
        actor: { userId: "other", name: "Margaret" },
      });
    await expect(accept("second")).rejects.toMatchObject({
      code: "CONFLICT",
      message: "Margaret already accepted it as verified; nothing was changed.",
    });
    const events = await readAllEvents(store, session.id);
    expect(foldEvents(events).intentions.c1).toMatchObject({ status: "VERIFIED", acceptedBy: "Margaret" });
    expect(
      events.filter(
        (event) =>
          event.body.type === "intention-status-changed" && event.body.evidence === "accepted-by-person",
      ),
    ).toHaveLength(1);
  });

  it("an unrelated event in between does not lose the acceptance: it is decided again and recorded once", async () => {
    const { session, user } = await seedSession(db, "unrelated");
    await store.append(session.id, runWithUncheckedNode(true));
    let interleave = true;
    const racing: EventLog = {
      read: (sessionId, afterSeq, limit) => store.read(sessionId, afterSeq, limit),
      async append(sessionId, bodies, options) {
        if (interleave) {
          interleave = false;
          await store.append(sessionId, [
            {
              type: "message-posted",
              messageId: "m-between",
              runId: "run-1",
              role: "user",
              text: "meanwhile",
            },
          ]);
        }
        return store.append(sessionId, bodies, options);
      },
    };
    await acceptIntention(racing, {
      sessionId: session.id,
      intentionId: "c1",
      reason: "checked",
      actor: { userId: user.id, name: user.name },
    });
    const events = await readAllEvents(store, session.id);
    expect(events.at(-2)?.body.type).toBe("message-posted");
    expect(events.at(-1)?.body).toMatchObject({ intentionId: "c1", evidence: "accepted-by-person" });
  });
});
