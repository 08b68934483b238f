import "server-only";
import { initTRPC, TRPCError } from "@trpc/server";
import { getServerSession } from "next-auth";
import superjson from "superjson";
import { z } from "zod";
import { appContext } from "@/server/app-context";
import { bearerOf, lowerRole, resolveBearer, type TokenScope } from "@/server/auth/api-tokens";
import { authOptions } from "@/server/auth/options";
import { db } from "@/server/db";
import { UserFacingError } from "@/server/domain/errors";
import {
  type Action,
  atLeast,
  can,
  MUTATION_MINIMUM,
  parseRole,
  type Role,
  refusal,
} from "@/server/domain/vocabulary/team-roles";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { logger } from "@/server/logger";

/* 1. Context: who is asking. Resources are loaded by the procedures below, never trusted from input. */

export interface Context {
  db: PrismaClient;
  user: { id: string; name: string; email: string } | null;
  /** Set when the caller sent an API token: the user is its owner, limited to this scope. */
  token?: TokenScope | null;
  /** Why a bearer token was refused (revoked, expired, unknown): the UNAUTHORIZED message. */
  tokenRefusal?: string | null;
}

/**
 * A request with `Authorization: Bearer arb_…` is that token's user, limited to its scope, and never
 * falls back to a cookie (a refused token is a refused call, with the reason). Otherwise the
 * NextAuth session cookie.
 */
export async function createContext(opts?: { req?: Request }): Promise<Context> {
  const secret = bearerOf(opts?.req?.headers.get("authorization"));
  if (secret) return bearerContext(db, secret);
  const session = await getServerSession(authOptions);
  const userId = (session?.user as { id?: string } | undefined)?.id ?? null;
  const user = userId
    ? await db.user.findUnique({ where: { id: userId }, select: { id: true, name: true, email: true } })
    : null;
  return { db, user, token: null };
}

/** The context of a bearer-token caller: its user and scope, or no user and why. */
export async function bearerContext(database: PrismaClient, secret: string): Promise<Context> {
  const resolved = await resolveBearer(database, secret);
  if (!resolved.ok) return { db: database, user: null, token: null, tokenRefusal: resolved.message };
  return { db: database, user: resolved.user, token: resolved.scope };
}

/** Procedure metadata: `tokenCallers: true` opens a caller-scoped procedure to API tokens. */
interface Meta {
  tokenCallers?: boolean;
}

/* 2. Initialisation: superjson, and errors that carry zod issues but never internals. */

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    transformer: superjson,
    sse: { ping: { enabled: true, intervalMs: 10_000 }, client: { reconnectAfterInactivityMs: 30_000 } },
    errorFormatter({ shape, error }) {
      const zodError = error.cause instanceof z.ZodError ? z.flattenError(error.cause) : null;
      const internal = error.code === "INTERNAL_SERVER_ERROR";
      return {
        ...shape,
        message: internal ? "Something went wrong on the server. It has been logged." : shape.message,
        data: { ...shape.data, stack: undefined, zodError },
      };
    },
  });

export const createRouter = t.router;

/** Turns our catalogue of user-facing errors into tRPC codes; anything else is logged as internal. */
const errorMapping = t.middleware(async ({ next, path }) => {
  const result = await next();
  if (!result.ok) {
    const cause = result.error.cause;
    // By name too: services on `appContext()` are built by the instrumentation bundle, whose copy of
    // the class is not the one this route bundle imported.
    if (cause instanceof UserFacingError || cause?.name === "UserFacingError") {
      const { code } = cause as UserFacingError;
      throw new TRPCError({ code, message: cause.message, cause });
    }
    if (result.error.code === "INTERNAL_SERVER_ERROR")
      logger.error({ err: result.error, path }, "procedure failed");
  }
  return result;
});

/* 3. Procedures. */

export const publicProcedure = t.procedure.use(errorMapping);

const signedIn = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.user)
    throw new TRPCError({ code: "UNAUTHORIZED", message: ctx.tokenRefusal ?? "Sign in to continue." });
  return next({ ctx: { ...ctx, user: ctx.user, token: ctx.token ?? null, app: appContext() } });
});

/**
 * Signed in, acting on the caller's own account (their teams, invitations, tokens). An API token is
 * limited to one team, so these are refused to token callers unless the procedure says it keeps to
 * the token's scope (`.meta({ tokenCallers: true })`).
 */
export const protectedProcedure = signedIn.use(({ ctx, meta, next }) => {
  if (ctx.token && !meta?.tokenCallers)
    throw new TRPCError({ code: "FORBIDDEN", message: TOKEN_REFUSED_HERE });
  return next();
});

const TOKEN_REFUSED_HERE = "API tokens cannot do this. Sign in to Arbor in the browser to do it.";

/**
 * The token's limits on top of the membership: another team is NOT_FOUND (as for any outsider), a
 * project outside the token's list too, a team-wide call by a project-limited token is FORBIDDEN, and
 * the role is the lower of the member's and the token's.
 */
export function scopedRole(
  token: TokenScope | null,
  where: { teamId: string; projectId?: string },
  role: Role,
  notFound: string,
): Role {
  if (!token) return role;
  if (token.teamId !== where.teamId) throw new TRPCError({ code: "NOT_FOUND", message: notFound });
  if (token.projectIds.length > 0) {
    if (!where.projectId)
      throw new TRPCError({
        code: "FORBIDDEN",
        message:
          "This API token is limited to some projects; team-wide calls need a token for the whole team.",
      });
    if (!token.projectIds.includes(where.projectId))
      throw new TRPCError({ code: "NOT_FOUND", message: notFound });
  }
  return lowerRole(role, token.role);
}

/**
 * Resource procedures. Each loads the resource through the caller's membership of its team, so a
 * caller outside the team gets NOT_FOUND exactly like for an id that does not exist (ids cannot be
 * probed), and puts the caller's `role` in the context.
 *
 * Reads need any role (viewers watch). Mutations need at least a member, always: a viewer never
 * changes anything, even through a procedure that forgot to say what it needs (fail closed).
 * `.requires(action)` adds the role an action needs (see `server/auth/roles.ts`), e.g.
 * `sessionProcedure.requires("approve").input(…).mutation(…)`. Every router uses these builders;
 * `server/api/router-auth.integration.test.ts` walks the router to prove it.
 */
function assertRole(role: Role, type: string, action: Action | null): void {
  if (type === "mutation" && !atLeast(role, MUTATION_MINIMUM))
    throw new TRPCError({ code: "FORBIDDEN", message: refusal(role, action ?? "run") });
  if (action && !can(role, action))
    throw new TRPCError({ code: "FORBIDDEN", message: refusal(role, action) });
}

const teamBase = signedIn
  .input(z.object({ teamId: z.string().min(1) }))
  .use(async ({ ctx, input, next, type }) => {
    const membership = await ctx.db.membership.findUnique({
      where: { userId_teamId: { userId: ctx.user.id, teamId: input.teamId } },
      include: { team: true },
    });
    const memberRole = parseRole(membership?.role);
    if (!membership || !memberRole) throw new TRPCError({ code: "NOT_FOUND", message: "Team not found." });
    const role = scopedRole(ctx.token, { teamId: membership.teamId }, memberRole, "Team not found.");
    assertRole(role, type, null);
    return next({ ctx: { ...ctx, team: membership.team, role } });
  });

const projectBase = signedIn
  .input(z.object({ projectId: z.string().min(1) }))
  .use(async ({ ctx, input, next, type }) => {
    const found = await ctx.db.project.findFirst({
      where: { id: input.projectId },
      include: {
        team: { select: { memberships: { where: { userId: ctx.user.id }, select: { role: true } } } },
      },
    });
    const memberRole = parseRole(found?.team.memberships[0]?.role);
    if (!found || !memberRole) throw new TRPCError({ code: "NOT_FOUND", message: "Project not found." });
    const where = { teamId: found.teamId, projectId: found.id };
    const role = scopedRole(ctx.token, where, memberRole, "Project not found.");
    assertRole(role, type, null);
    const { team: _membership, ...project } = found;
    return next({ ctx: { ...ctx, project, role } });
  });

const sessionBase = signedIn
  .input(z.object({ sessionId: z.string().min(1) }))
  .use(async ({ ctx, input, next, type }) => {
    const found = await ctx.db.session.findFirst({
      where: { id: input.sessionId },
      include: {
        project: {
          include: {
            team: { select: { memberships: { where: { userId: ctx.user.id }, select: { role: true } } } },
          },
        },
      },
    });
    const memberRole = parseRole(found?.project.team.memberships[0]?.role);
    if (!found || !memberRole) throw new TRPCError({ code: "NOT_FOUND", message: "Session not found." });
    const where = { teamId: found.project.teamId, projectId: found.project.id };
    const role = scopedRole(ctx.token, where, memberRole, "Session not found.");
    assertRole(role, type, null);
    const { team: _membership, ...project } = found.project;
    return next({ ctx: { ...ctx, session: { ...found, project }, role } });
  });

/** A team the caller belongs to, signed in through the browser (never an API token): its tokens. */
export const browserTeamProcedure = teamBase.use(({ ctx, next }) => {
  if (ctx.token) throw new TRPCError({ code: "FORBIDDEN", message: TOKEN_REFUSED_HERE });
  return next();
});

/** A team the caller belongs to (`teamId` in the input). */
export const teamProcedure = Object.assign(teamBase, {
  requires: (action: Action) =>
    teamBase.use(({ ctx, next, type }) => {
      assertRole(ctx.role, type, action);
      return next();
    }),
});

/** A project of a team the caller belongs to (`projectId` in the input). */
export const projectProcedure = Object.assign(projectBase, {
  requires: (action: Action) =>
    projectBase.use(({ ctx, next, type }) => {
      assertRole(ctx.role, type, action);
      return next();
    }),
});

/** A session of a project of a team the caller belongs to (`sessionId` in the input). */
export const sessionProcedure = Object.assign(sessionBase, {
  requires: (action: Action) =>
    sessionBase.use(({ ctx, next, type }) => {
      assertRole(ctx.role, type, action);
      return next();
    }),
});
