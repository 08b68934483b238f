import "server-only";
import { initTRPC, TRPCError } from "@trpc/server";
import { getServerSession } from "next-auth";
import superjson from "superjson";
import { z } from "zod";
import { appContext } from "@/server/app-context";
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
import { logger } from "@/server/logger";

/* 1. Context: who is asking. Resources are loaded by the procedures below, never trusted from input. */

export async function createContext() {
  const session = await getServerSession(authOptions);
  const userId = (session?.user as { id?: string } | undefined)?.id ?? null;
  const user = userId
    ? await db.user.findUnique({ where: { id: userId }, select: { id: true, name: true, email: true } })
    : null;
  return { db, user };
}
export type Context = Awaited<ReturnType<typeof createContext>>;

/* 2. Initialisation: superjson, and errors that carry zod issues but never internals. */

const t = initTRPC.context<Context>().create({
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

export const protectedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.user) throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in to continue." });
  return next({ ctx: { ...ctx, user: ctx.user, app: appContext() } });
});

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

const teamBase = protectedProcedure
  .input(z.object({ teamId: z.string().min(1) }))
  .use(async ({ ctx, input, next, type }) => {
    const membership = await ctx.db.membership.findUnique({
      where: { userId_teamId: { userId: ctx.user.id, teamId: input.teamId } },
      include: { team: true },
    });
    const role = parseRole(membership?.role);
    if (!membership || !role) throw new TRPCError({ code: "NOT_FOUND", message: "Team not found." });
    assertRole(role, type, null);
    return next({ ctx: { ...ctx, team: membership.team, role } });
  });

const projectBase = protectedProcedure
  .input(z.object({ projectId: z.string().min(1) }))
  .use(async ({ ctx, input, next, type }) => {
    const found = await ctx.db.project.findFirst({
      where: { id: input.projectId },
      include: {
        team: { select: { memberships: { where: { userId: ctx.user.id }, select: { role: true } } } },
      },
    });
    const role = parseRole(found?.team.memberships[0]?.role);
    if (!found || !role) throw new TRPCError({ code: "NOT_FOUND", message: "Project not found." });
    assertRole(role, type, null);
    const { team: _membership, ...project } = found;
    return next({ ctx: { ...ctx, project, role } });
  });

const sessionBase = protectedProcedure
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
    const role = parseRole(found?.project.team.memberships[0]?.role);
    if (!found || !role) throw new TRPCError({ code: "NOT_FOUND", message: "Session not found." });
    assertRole(role, type, null);
    const { team: _membership, ...project } = found.project;
    return next({ ctx: { ...ctx, session: { ...found, project }, role } });
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
