import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { appRouter } from "@/server/api/root";
import {
  bearerContext,
  type Context,
  createRouter,
  protectedProcedure,
  publicProcedure,
} from "@/server/api/trpc";
import { createApiToken, revokeApiToken } from "@/server/auth/api-tokens";
import type { Role } from "@/server/domain/vocabulary/team-roles";
import { EventStore } from "@/server/events/store";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { createTestDb, seedSession } from "@/testing/db/test-db";
import { waitingRun } from "@/testing/events/capture-events";
import { testRunDefaults } from "@/testing/harness/run-defaults";

/**
 * Walks every procedure of the app router (tRPC 11 keeps them flat, by dotted path, in
 * `appRouter._def.procedures`) and proves each one refuses callers it must refuse. A procedure added
 * without a check fails here without anyone having to remember to list it: only the lists below
 * open a door, and every entry says why.
 */

/** Open to anyone, signed in or not. */
const PUBLIC = new Set([
  "auth.signUp", // creating an account is how one gets signed in
]);

/**
 * Signed-in callers acting only on their own data (nothing of a team in the input): another team's
 * member may call them, and the test checks their answers hold none of the other team's ids.
 */
const CALLER_SCOPED = new Set([
  "system.status", // which model answers, whether Docker answers: no team data
  "system.tools", // the agent's tool catalogue: no team data
  "team.list", // the caller's own teams
  "team.create", // a new team the caller owns
  "inbox.pending", // approvals waiting in the caller's own teams
  "apiToken.whoami", // the caller, and for a token its own team and projects
  "account.settings", // the caller's own settings layer
  "account.saveSettings", // only the caller's own layer, which can only tighten their own runs
]);

/**
 * The invitation link is the permission (a bearer token, single use, expiring): any signed-in holder
 * may look at it and join. Still refused without a session, and an unknown token is NOT_FOUND.
 */
const BEARER_TOKEN = new Set(["team.inviteInfo", "team.acceptInvite"]);

/** Mutations a viewer may make: about their own membership, never about the team's work. */
const VIEWER_MUTATIONS = new Set(["team.create", "team.leave", "team.acceptInvite", "account.saveSettings"]);

const REFUSALS = ["UNAUTHORIZED", "NOT_FOUND", "FORBIDDEN"];

/**
 * Queries an API token may not call even on its own team (issue #20): they act on the person's
 * account across teams, or manage the tokens themselves. Browser sessions only; FORBIDDEN.
 */
const BROWSER_ONLY_QUERIES = ["account.settings", "apiToken.list", "team.inviteInfo"];

// Resolvers reach the server's services through the app context. Refused calls must never get that
// far, so the orchestrator throws if touched; reads that are allowed get a real event store.
const app = vi.hoisted(() => ({ current: {} as Record<string, unknown> }));
vi.mock("@/server/app-context", () => ({ appContext: () => app.current }));

type Ctx = Parameters<typeof appRouter.createCaller>[0];
type ProcedureType = "query" | "mutation" | "subscription";
type AnyRouter = { _def: { procedures: unknown }; createCaller: (ctx: Ctx) => unknown };

function proceduresOf(router: AnyRouter) {
  return Object.entries(router._def.procedures as Record<string, { _def: { type: ProcedureType } }>)
    .map(([path, procedure]) => ({ path, type: procedure._def.type }))
    .sort((a, b) => a.path.localeCompare(b.path));
}

type Outcome = { ok: true; value: unknown } | { ok: false; code: string };

async function call(router: AnyRouter, ctx: Ctx, path: string, input: unknown): Promise<Outcome> {
  const caller = router.createCaller(ctx);
  const fn = path.split(".").reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], caller);
  try {
    const value = await (fn as (input: unknown) => Promise<unknown>)(input);
    // A subscription that was allowed: stop it, its first answer is not needed.
    if (value && typeof value === "object" && Symbol.asyncIterator in value)
      await (value as AsyncIterable<unknown>)[Symbol.asyncIterator]().return?.();
    return { ok: true, value };
  } catch (error) {
    return { ok: false, code: error instanceof TRPCError ? error.code : `not a TRPCError: ${String(error)}` };
  }
}

/* Each walk returns the procedures that let the wrong caller through, with what happened. */

async function anonymousLetThrough(router: AnyRouter, caller: Ctx = anonymous()): Promise<string[]> {
  const found: string[] = [];
  for (const { path } of proceduresOf(router)) {
    if (PUBLIC.has(path)) continue;
    const result = await call(router, caller, path, plausible);
    if (result.ok || result.code !== "UNAUTHORIZED")
      found.push(`${path}: ${JSON.stringify(result).slice(0, 200)}`);
  }
  return found;
}

async function outsiderLetThrough(router: AnyRouter, caller: Ctx = outsider): Promise<string[]> {
  const found: string[] = [];
  for (const { path } of proceduresOf(router)) {
    if (PUBLIC.has(path)) continue;
    const result = await call(router, caller, path, plausible);
    if (CALLER_SCOPED.has(path)) {
      // Allowed, but nothing of the other team may come back.
      const answer = JSON.stringify(result.ok ? result.value : result);
      for (const id of teamIds) if (answer.includes(id)) found.push(`${path}: leaked ${id}`);
      continue;
    }
    if (result.ok || !REFUSALS.includes(result.code))
      found.push(`${path}: ${JSON.stringify(result).slice(0, 200)}`);
  }
  return found;
}

async function viewerLetThrough(
  router: AnyRouter,
  caller: Ctx = viewer,
  exceptions: ReadonlySet<string> = VIEWER_MUTATIONS,
): Promise<string[]> {
  const found: string[] = [];
  for (const { path, type } of proceduresOf(router)) {
    if (type !== "mutation" || PUBLIC.has(path) || exceptions.has(path)) continue;
    const result = await call(router, caller, path, plausible);
    if (result.ok || result.code !== "FORBIDDEN")
      found.push(`${path}: ${JSON.stringify(result).slice(0, 200)}`);
  }
  return found;
}

let db: PrismaClient;
let cleanup: () => Promise<void>;
let owner: Ctx;
let viewer: Ctx;
let outsider: Ctx;
/** API-token callers (issue #20), all of user a: */
let tokens: {
  /** a token for team b, whose user is also in team a (owner) and team b (member) */
  otherTeam: Ctx;
  /** a viewer-role token of team a's owner */
  viewer: Ctx;
  /** an owner-role token of team a's owner */
  owner: Ctx;
  /** a revoked token (the context holds no user, and why) */
  revoked: Ctx;
};
const anonymous = (): Ctx => ({ db, user: null });
let teamIds: string[];
/** One input that fits every procedure, every id naming team A's things (zod drops what a procedure does not take). */
let plausible: Record<string, unknown>;

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  const a = await seedSession(db, "a");
  const b = await seedSession(db, "b");
  const watcher = await db.user.create({ data: { email: "viewer@example.com", name: "Viewer" } });
  await db.membership.create({ data: { userId: watcher.id, teamId: a.team.id, role: "viewer" } });
  const store = new EventStore(db);
  await store.append(a.session.id, waitingRun);
  const invite = await db.invite.create({
    data: {
      teamId: a.team.id,
      tokenHash: "0".repeat(64),
      role: "member",
      createdById: a.user.id,
      expiresAt: new Date(Date.now() + 86_400_000),
    },
  });
  app.current = {
    store,
    model: { id: "m", label: "test model", offline: true },
    // settings.modelChoices reads the environment's model layer and the tiers' models: none here,
    // as on a server with no ARBOR_MODEL_* and no model config.
    environment: {},
    tierModels: [],
    // settings.layers and the run settings read the server's own layer (limits, budget, resources).
    runDefaults: testRunDefaults(),
    sandboxes: { ping: async () => undefined, get: async () => null },
    projectImages: { isBuilding: () => false },
    imageUpkeep: { localStatus: () => null },
    mcp: { healthOf: () => [], remember: () => undefined },
    orchestrator: new Proxy(
      {},
      {
        get: () => {
          throw new Error("a refused call reached the orchestrator");
        },
      },
    ),
  };
  owner = { db, user: a.user };
  viewer = { db, user: watcher };
  outsider = { db, user: b.user };
  teamIds = [a.team.id, a.project.id, a.session.id, "ap2", invite.id];
  await db.membership.create({ data: { userId: a.user.id, teamId: b.team.id, role: "member" } });
  const tokenCtx = async (teamId: string, role: Role): Promise<Ctx> => {
    const made = await createApiToken(db, {
      userId: a.user.id,
      teamId,
      actorRole: "owner",
      name: `walk ${role}`,
      role,
      projectIds: [],
      expiresInDays: 7,
    });
    return (await bearerContext(db, made.token)) as Ctx;
  };
  const revoked = await createApiToken(db, {
    userId: a.user.id,
    teamId: a.team.id,
    actorRole: "owner",
    name: "walk revoked",
    role: "owner",
    projectIds: [],
    expiresInDays: 7,
  });
  await revokeApiToken(db, a.user.id, revoked.id);
  tokens = {
    otherTeam: await tokenCtx(b.team.id, "member"),
    viewer: await tokenCtx(a.team.id, "viewer"),
    owner: await tokenCtx(a.team.id, "owner"),
    revoked: (await bearerContext(db, revoked.token)) as Ctx,
  };
  plausible = {
    teamId: a.team.id,
    projectId: a.project.id,
    sessionId: a.session.id,
    approvalId: "ap2",
    runId: "run-2",
    inviteId: invite.id,
    userId: a.user.id,
    assigneeUserId: a.user.id,
    token: "an-unknown-invite-token",
    name: "Renamed",
    task: "run `ls`",
    mode: "agent",
    decision: "approved",
    reason: "because",
    role: "member",
    expiresInDays: 7,
    checkpoints: { decompositions: "ask", commands: "ask-always" },
    file: "{}",
    message: "save",
    allowSecrets: false,
    lastEventId: null,
    path: "README.md",
    from: "README.md",
    to: "README.txt",
    content: "edited",
    baseHash: null,
    // intent.*: a valid intent, so a refusal is about the caller and never about the input.
    intentId: "INT-001",
    intent: { intentId: "INT-001", name: "Auth", ownedScope: ["src/auth/**"] },
    fields: { name: "Auth", ownedScope: ["src/auth/**"] },
    runtime: "runc",
  };
});
afterAll(async () => cleanup());

describe("every procedure of the app router", () => {
  const procedures = proceduresOf(appRouter);

  it("is walked (the router is not empty, and every listed exception exists)", () => {
    expect(procedures.length).toBeGreaterThan(20);
    expect(procedures.filter((procedure) => procedure.type === "mutation").length).toBeGreaterThan(10);
    const paths = new Set(procedures.map((procedure) => procedure.path));
    for (const listed of [...PUBLIC, ...CALLER_SCOPED, ...BEARER_TOKEN, ...VIEWER_MUTATIONS])
      expect(paths, `${listed} is listed but not in the router`).toContain(listed);
  });

  it("refuses an anonymous caller (UNAUTHORIZED), except the public list", async () => {
    expect(await anonymousLetThrough(appRouter)).toEqual([]);
  });

  it("refuses a member of another team asking for this team's ids", async () => {
    expect(await outsiderLetThrough(appRouter)).toEqual([]);
  });

  it("refuses a viewer every mutation (FORBIDDEN) but their own membership's", async () => {
    expect(await viewerLetThrough(appRouter)).toEqual([]);
  });

  it("lets the team's owner through with the same input (so the refusals above are about the caller)", async () => {
    for (const { path, type } of procedures) {
      if (type !== "query" || PUBLIC.has(path) || BEARER_TOKEN.has(path)) continue;
      const result = await call(appRouter, owner, path, plausible);
      if (!result.ok) expect(REFUSALS, `${path} refused the owner`).not.toContain(result.code);
      // Let through, it must not crash either (a crash here once hid a missing app-context service).
      if (!result.ok) expect(result.code, `${path} failed for the owner`).not.toBe("INTERNAL_SERVER_ERROR");
    }
  });

  it("refuses a revoked API token everything but the public list (UNAUTHORIZED, saying why)", async () => {
    expect((tokens.revoked as Context).user).toBeNull();
    expect(await anonymousLetThrough(appRouter, tokens.revoked)).toEqual([]);
  });

  it("refuses an API token of team B on team A's ids, though its user belongs to both", async () => {
    expect(await outsiderLetThrough(appRouter, tokens.otherTeam)).toEqual([]);
  });

  it("refuses a viewer-role API token every mutation, even its owner's own-membership ones", async () => {
    expect(await viewerLetThrough(appRouter, tokens.viewer, new Set())).toEqual([]);
  });

  it("lets an owner's API token through every query of its team but the browser-only list", async () => {
    const refused: string[] = [];
    for (const { path, type } of procedures) {
      if (type !== "query" || PUBLIC.has(path)) continue;
      const result = await call(appRouter, tokens.owner, path, plausible);
      if (!result.ok && REFUSALS.includes(result.code)) refused.push(`${path}: ${result.code}`);
    }
    expect(refused).toEqual(BROWSER_ONLY_QUERIES.map((path) => `${path}: FORBIDDEN`));
  });

  it("catches a procedure added without a check", async () => {
    const planted = createRouter({
      planted: createRouter({
        // Loads by id without asking whose it is.
        peek: publicProcedure
          .input(z.object({ projectId: z.string() }))
          .query(({ ctx, input }) => ctx.db.project.findUnique({ where: { id: input.projectId } })),
        // Signed in, but any team's project.
        rename: protectedProcedure
          .input(z.object({ projectId: z.string(), name: z.string() }))
          .mutation(({ ctx, input }) =>
            ctx.db.project.update({ where: { id: input.projectId }, data: { name: input.name } }),
          ),
      }),
    });
    expect((await anonymousLetThrough(planted)).map((line) => line.split(":")[0])).toEqual(["planted.peek"]);
    expect((await outsiderLetThrough(planted)).map((line) => line.split(":")[0])).toEqual([
      "planted.peek",
      "planted.rename",
    ]);
    expect((await viewerLetThrough(planted)).map((line) => line.split(":")[0])).toEqual(["planted.rename"]);
  });
});
