import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { appRouter } from "@/server/api/root";
import { foldEvents } from "@/server/domain/session/fold";
import { EventStore } from "@/server/events/store";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { createTestDb, seedSession } from "@/testing/db/test-db";
import { waitingRun } from "@/testing/events/capture-events";

// The approval router hands answers to the orchestrator; here it only records who got through.
const app = vi.hoisted(() => ({ current: {} as Record<string, unknown>, decided: [] as string[] }));
vi.mock("@/server/app-context", () => ({ appContext: () => app.current }));

let db: PrismaClient;
let cleanup: () => Promise<void>;
let store: EventStore;

beforeEach(async () => {
  ({ db, cleanup } = await createTestDb());
  store = new EventStore(db);
  app.decided = [];
  app.current = {
    store,
    orchestrator: {
      decide: async (input: { actor: { name: string } }) => {
        app.decided.push(input.actor.name);
      },
    },
  };
});
afterEach(async () => cleanup());

async function newUser(name: string) {
  return db.user.create({ data: { email: `${name.toLowerCase()}@example.com`, name } });
}
const as = (user: { id: string; name: string; email: string }) => appRouter.createCaller({ db, user });

describe("teams", () => {
  it("creates a team owned by its creator and lists projects per team", async () => {
    const { user, project } = await seedSession(db, "o");
    const owner = as(user);
    const team = await owner.team.create({ name: "Platform" });
    const teams = await owner.team.list();
    expect(teams.map((each) => [each.name, each.role])).toEqual([
      ["Team o", "owner"],
      ["Platform", "owner"],
    ]);
    expect(await owner.project.list({ teamId: team.id })).toEqual([]);
    expect((await owner.project.list({ teamId: project.teamId })).map((each) => each.id)).toEqual([
      project.id,
    ]);
  });

  it("invites by link: the role of the link, single use, clear errors for unknown, used and expired links", async () => {
    const { user, team } = await seedSession(db, "o");
    const owner = as(user);
    const invite = await owner.team.createInvite({ teamId: team.id, role: "viewer", expiresInDays: 7 });
    expect(await db.invite.count({ where: { tokenHash: invite.token } })).toBe(0); // only the hash is kept

    const guest = as(await newUser("Guest"));
    expect(await guest.team.inviteInfo({ token: invite.token })).toMatchObject({
      team: { id: team.id, name: "Team o" },
      role: "viewer",
      state: "valid",
      memberAs: null,
    });
    expect(await guest.team.acceptInvite({ token: invite.token })).toEqual({
      teamId: team.id,
      role: "viewer",
      joined: true,
    });
    expect((await guest.team.list()).map((each) => each.role)).toEqual(["viewer"]);
    // Opening it again as a member changes nothing.
    expect(await guest.team.acceptInvite({ token: invite.token })).toMatchObject({ joined: false });

    const late = as(await newUser("Late"));
    await expect(late.team.acceptInvite({ token: invite.token })).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining("already been used"),
    });
    await expect(late.team.acceptInvite({ token: "nonsense" })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: expect.stringContaining("not valid"),
    });
    const old = await owner.team.createInvite({ teamId: team.id, role: "member", expiresInDays: 1 });
    await db.invite.updateMany({ where: { id: old.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await expect(late.team.acceptInvite({ token: old.token })).rejects.toMatchObject({
      code: "PRECONDITION_FAILED",
      message: expect.stringContaining("expired"),
    });
    const revoked = await owner.team.createInvite({ teamId: team.id, role: "member", expiresInDays: 30 });
    await owner.team.revokeInvite({ teamId: team.id, inviteId: revoked.id });
    await expect(late.team.acceptInvite({ token: revoked.token })).rejects.toMatchObject({
      message: expect.stringContaining("revoked"),
    });
    expect((await late.team.list()).length).toBe(0);
    await expect(
      owner.team.createInvite({ teamId: team.id, role: "member", expiresInDays: 3 }),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
  });

  it("lets owners and admins manage roles, never demoting or removing the last owner", async () => {
    const { user, team } = await seedSession(db, "o");
    const owner = as(user);
    const adminUser = await newUser("Admin");
    const memberUser = await newUser("Member");
    await db.membership.create({ data: { userId: adminUser.id, teamId: team.id, role: "admin" } });
    await db.membership.create({ data: { userId: memberUser.id, teamId: team.id, role: "member" } });
    const admin = as(adminUser);
    const member = as(memberUser);

    await expect(
      owner.team.changeRole({ teamId: team.id, userId: user.id, role: "admin" }),
    ).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringContaining("last owner") });
    await expect(owner.team.removeMember({ teamId: team.id, userId: user.id })).rejects.toMatchObject({
      code: "CONFLICT",
    });
    await expect(owner.team.leave({ teamId: team.id })).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(
      admin.team.changeRole({ teamId: team.id, userId: user.id, role: "member" }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      admin.team.createInvite({ teamId: team.id, role: "owner", expiresInDays: 7 }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      member.team.changeRole({ teamId: team.id, userId: memberUser.id, role: "admin" }),
    ).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: expect.stringContaining("Members cannot manage members"),
    });

    expect(await admin.team.changeRole({ teamId: team.id, userId: memberUser.id, role: "viewer" })).toEqual({
      userId: memberUser.id,
      role: "viewer",
    });
    await owner.team.changeRole({ teamId: team.id, userId: adminUser.id, role: "owner" });
    // Two owners now: the first may step down.
    await owner.team.changeRole({ teamId: team.id, userId: user.id, role: "member" });
    await admin.team.removeMember({ teamId: team.id, userId: memberUser.id });
    const page = await admin.team.getById({ teamId: team.id });
    expect(page.members.map((each) => [each.name, each.role])).toEqual([
      ["User o", "member"],
      ["Admin", "owner"],
    ]);
    await expect(member.team.getById({ teamId: team.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("delegated approvals", () => {
  it("lets only the named member, or an owner or admin, answer; the card's view shows who", async () => {
    const { user, team, session } = await seedSession(db, "o");
    await store.append(session.id, waitingRun);
    const aliceUser = await newUser("Alice");
    const bobUser = await newUser("Bob");
    const veraUser = await newUser("Vera");
    await db.membership.create({ data: { userId: aliceUser.id, teamId: team.id, role: "member" } });
    await db.membership.create({ data: { userId: bobUser.id, teamId: team.id, role: "member" } });
    await db.membership.create({ data: { userId: veraUser.id, teamId: team.id, role: "viewer" } });
    const bob = as(bobUser);
    const alice = as(aliceUser);
    const owner = as(user);

    expect((await owner.approval.assignees({ sessionId: session.id })).map((each) => each.name)).toEqual([
      "User o",
      "Alice",
      "Bob",
    ]);
    await expect(
      owner.approval.assign({ sessionId: session.id, approvalId: "ap2", assigneeUserId: veraUser.id }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await owner.approval.assign({ sessionId: session.id, approvalId: "ap2", assigneeUserId: aliceUser.id });

    const view = foldEvents(await store.read(session.id));
    expect(view.approvals.ap2?.assignee).toEqual({ userId: aliceUser.id, name: "Alice" });
    expect((await db.approval.findUniqueOrThrow({ where: { id: "ap2" } })).assignedToId).toBe(aliceUser.id);

    const decide = { sessionId: session.id, approvalId: "ap2", decision: "approved" as const };
    await expect(bob.approval.decide(decide)).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: expect.stringContaining("delegated to another member"),
    });
    await expect(
      bob.approval.assign({ sessionId: session.id, approvalId: "ap2", assigneeUserId: bobUser.id }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await alice.approval.decide(decide);
    await owner.approval.decide(decide);
    expect(app.decided).toEqual(["Alice", "User o"]);
  });
});
