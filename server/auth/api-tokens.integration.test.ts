import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { appRouter } from "@/server/api/root";
import { bearerContext, type Context } from "@/server/api/trpc";
import { createApiToken, hashApiToken, resolveBearer } from "@/server/auth/api-tokens";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { logger } from "@/server/logger";
import { createTestDb, seedSession } from "@/testing/db/test-db";

// Refused calls never reach the app's services; allowed reads here touch the database only.
vi.mock("@/server/app-context", () => ({
  appContext: () => ({ model: { id: "m", label: "test model", offline: true } }),
}));

let db: PrismaClient;
let cleanup: () => Promise<void>;
let a: Awaited<ReturnType<typeof seedSession>>;
let b: Awaited<ReturnType<typeof seedSession>>;
let otherProjectId: string;

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  a = await seedSession(db, "a");
  b = await seedSession(db, "b");
  // User a is also a plain member of team b: a token for team b must not reach team a.
  await db.membership.create({ data: { userId: a.user.id, teamId: b.team.id, role: "member" } });
  const other = await db.project.create({
    data: { name: "Other", teamId: a.team.id, repoPath: "/nonexistent.git", createdById: a.user.id },
  });
  otherProjectId = other.id;
});
afterAll(async () => cleanup());

async function tokenFor(
  input: Partial<Parameters<typeof createApiToken>[1]> & { teamId: string },
  now = new Date(),
): Promise<string> {
  const made = await createApiToken(
    db,
    {
      userId: a.user.id,
      actorRole: "owner",
      name: "ci",
      role: "member",
      projectIds: [],
      expiresInDays: 30,
      ...input,
    },
    now,
  );
  return made.token;
}

async function callerWith(secret: string) {
  return appRouter.createCaller((await bearerContext(db, secret)) as Context);
}

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof TRPCError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error("the call was not refused");
}

describe("API tokens", () => {
  it("are made with a recognisable prefix and stored as their SHA-256 only", async () => {
    const made = await createApiToken(db, {
      userId: a.user.id,
      teamId: a.team.id,
      actorRole: "owner",
      name: "laptop",
      role: "member",
      projectIds: [],
      expiresInDays: null,
    });
    expect(made.token).toMatch(/^arb_[A-Za-z0-9_-]{43}$/);
    const row = await db.apiToken.findUniqueOrThrow({ where: { id: made.id } });
    expect(row.tokenHash).toBe(hashApiToken(made.token));
    expect(JSON.stringify(row)).not.toContain(made.token.slice(4));
    expect(row.prefix).toBe(made.token.slice(0, 8));
  });

  it("never get a role above their maker's, nor another team's project", async () => {
    await expect(
      createApiToken(db, {
        userId: a.user.id,
        teamId: b.team.id,
        actorRole: "member",
        name: "too strong",
        role: "admin",
        projectIds: [],
        expiresInDays: 7,
      }),
    ).rejects.toThrow(/higher role than yours/);
    await expect(tokenFor({ teamId: b.team.id, projectIds: [a.project.id] })).rejects.toThrow(
      /not in this team/,
    );
  });

  it("act as their user on their team, and record when they were last used", async () => {
    const secret = await tokenFor({ teamId: a.team.id });
    const caller = await callerWith(secret);
    const project = await caller.project.getById({ projectId: a.project.id });
    expect(project.id).toBe(a.project.id);
    const session = await caller.session.getById({ sessionId: a.session.id });
    expect(session.role).toBe("member"); // the token's role, below the owner's membership
    const row = await db.apiToken.findUniqueOrThrow({ where: { tokenHash: hashApiToken(secret) } });
    expect(row.lastUsedAt).not.toBeNull();
  });

  it("of team B are refused on team A (NOT_FOUND, as for any outsider) even though the user is in both", async () => {
    const caller = await callerWith(await tokenFor({ teamId: b.team.id }));
    expect((await refusal(caller.project.getById({ projectId: a.project.id }))).code).toBe("NOT_FOUND");
    expect((await refusal(caller.session.getById({ sessionId: a.session.id }))).code).toBe("NOT_FOUND");
    expect((await refusal(caller.project.list({ teamId: a.team.id }))).code).toBe("NOT_FOUND");
    // Its own team answers.
    expect((await caller.project.getById({ projectId: b.project.id })).id).toBe(b.project.id);
  });

  it("limited to a project reach that project only, and no team-wide call", async () => {
    const caller = await callerWith(await tokenFor({ teamId: a.team.id, projectIds: [a.project.id] }));
    expect((await caller.project.getById({ projectId: a.project.id })).id).toBe(a.project.id);
    expect((await refusal(caller.project.getById({ projectId: otherProjectId }))).code).toBe("NOT_FOUND");
    const teamWide = await refusal(caller.project.list({ teamId: a.team.id }));
    expect(teamWide.code).toBe("FORBIDDEN");
    expect(teamWide.message).toMatch(/limited to some projects/);
    const me = await caller.apiToken.whoami();
    expect(me.token?.projects.map((project) => project.id)).toEqual([a.project.id]);
  });

  it("with the viewer role change nothing, whatever their user's role", async () => {
    const caller = await callerWith(await tokenFor({ teamId: a.team.id, role: "viewer" }));
    const stop = await refusal(caller.run.stop({ sessionId: a.session.id, runId: "run-1" }));
    expect(stop.code).toBe("FORBIDDEN");
    expect(stop.message).toMatch(/Viewers can watch/);
  });

  it("are capped by the member's role today: a demoted member's admin token acts as a member", async () => {
    const secret = await tokenFor({ teamId: b.team.id, role: "member", actorRole: "member" });
    await db.membership.update({
      where: { userId_teamId: { userId: a.user.id, teamId: b.team.id } },
      data: { role: "viewer" },
    });
    try {
      const caller = await callerWith(secret);
      expect((await caller.session.getById({ sessionId: b.session.id })).role).toBe("viewer");
    } finally {
      await db.membership.update({
        where: { userId_teamId: { userId: a.user.id, teamId: b.team.id } },
        data: { role: "member" },
      });
    }
  });

  it("when revoked or expired, are refused with a clear message (UNAUTHORIZED)", async () => {
    const revoked = await tokenFor({ teamId: a.team.id, name: "old laptop" });
    const browser = appRouter.createCaller({ db, user: a.user, token: null });
    const listed = await browser.apiToken.list({ teamId: a.team.id });
    const id = listed.find((token) => token.name === "old laptop")?.id ?? "";
    await browser.apiToken.revoke({ teamId: a.team.id, tokenId: id });
    const afterRevoke = await refusal(
      (await callerWith(revoked)).project.getById({ projectId: a.project.id }),
    );
    expect(afterRevoke).toEqual({
      code: "UNAUTHORIZED",
      message: 'The API token "old laptop" was revoked. Create a new one.',
    });

    const longAgo = new Date(Date.now() - 40 * 86_400_000);
    const expired = await tokenFor({ teamId: a.team.id, name: "short", expiresInDays: 30 }, longAgo);
    const afterExpiry = await refusal(
      (await callerWith(expired)).session.getById({ sessionId: a.session.id }),
    );
    expect(afterExpiry).toEqual({
      code: "UNAUTHORIZED",
      message: 'The API token "short" expired. Create a new one.',
    });

    const unknown = await refusal((await callerWith("arb_not-a-real-token")).system.status());
    expect(unknown.code).toBe("UNAUTHORIZED");
    expect(unknown.message).toMatch(/Unknown API token/);
  });

  it("cannot make, list or revoke tokens, nor act on the user's account", async () => {
    const caller = await callerWith(await tokenFor({ teamId: a.team.id, role: "owner" }));
    const make = refusal(
      caller.apiToken.create({
        teamId: a.team.id,
        name: "x",
        role: "viewer",
        projectIds: [],
        expiresInDays: 7,
      }),
    );
    expect((await make).code).toBe("FORBIDDEN");
    expect((await refusal(caller.apiToken.list({ teamId: a.team.id }))).code).toBe("FORBIDDEN");
    expect((await refusal(caller.team.create({ name: "Mine" }))).code).toBe("FORBIDDEN");
    expect((await refusal(caller.account.saveSettings({ model: { name: "x" } }))).code).toBe("FORBIDDEN");
  });

  it("see only their own team in the team list and on the dashboard (a project-limited one: no dashboard)", async () => {
    // The user belongs to teams A and B; a token of B sees B only, with its own (lower) role.
    const caller = await callerWith(await tokenFor({ teamId: b.team.id, role: "viewer" }));
    const teams = await caller.team.list();
    expect(teams.map((team) => [team.id, team.role])).toEqual([[b.team.id, "viewer"]]);
    expect((await caller.dashboard.team({})).team.id).toBe(b.team.id);
    expect((await refusal(caller.dashboard.team({ teamId: a.team.id }))).code).toBe("NOT_FOUND");
    const limited = await callerWith(
      await tokenFor({ teamId: b.team.id, role: "viewer", projectIds: [b.project.id] }),
    );
    expect((await refusal(limited.dashboard.team({}))).code).toBe("FORBIDDEN");
  });

  it("log each use with the token's name, never its secret", async () => {
    const secret = await tokenFor({ teamId: a.team.id, name: "logged" });
    const info = vi.spyOn(logger, "info");
    try {
      const resolved = await resolveBearer(db, secret);
      expect(resolved.ok).toBe(true);
      const logged = JSON.stringify(info.mock.calls);
      expect(logged).toContain('"tokenName":"logged"');
      expect(logged).not.toContain(secret.slice(4, 20));
    } finally {
      info.mockRestore();
    }
  });

  it("can be revoked only by their owner, once", async () => {
    const secret = await tokenFor({ teamId: b.team.id, name: "mine" });
    const row = await db.apiToken.findUniqueOrThrow({ where: { tokenHash: hashApiToken(secret) } });
    const teammate = appRouter.createCaller({ db, user: b.user, token: null });
    expect((await refusal(teammate.apiToken.revoke({ teamId: b.team.id, tokenId: row.id }))).code).toBe(
      "NOT_FOUND",
    );
    expect((await (await callerWith(secret)).project.getById({ projectId: b.project.id })).id).toBe(
      b.project.id,
    );
  });
});
