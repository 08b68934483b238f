import { initTRPC, TRPCError } from "@trpc/server";
import { getServerSession } from "next-auth";
import superjson from "superjson";
import { z } from "zod";
import { appContext } from "@/server/app-context";
import { authOptions } from "@/server/auth/options";
import { db } from "@/server/db";
import { logger } from "@/server/logger";
import { UserFacingError } from "@/server/orchestrator/errors";

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
    if (cause instanceof UserFacingError) {
      throw new TRPCError({ code: cause.code, message: cause.message, cause });
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
 * A project the caller's team owns. Someone outside the team gets NOT_FOUND, exactly like a project
 * that does not exist, so ids cannot be probed.
 */
export const projectProcedure = protectedProcedure
  .input(z.object({ projectId: z.string().min(1) }))
  .use(async ({ ctx, input, next }) => {
    const project = await ctx.db.project.findFirst({
      where: { id: input.projectId, team: { memberships: { some: { userId: ctx.user.id } } } },
    });
    if (!project) throw new TRPCError({ code: "NOT_FOUND", message: "Project not found." });
    return next({ ctx: { ...ctx, project } });
  });

export const sessionProcedure = protectedProcedure
  .input(z.object({ sessionId: z.string().min(1) }))
  .use(async ({ ctx, input, next }) => {
    const session = await ctx.db.session.findFirst({
      where: { id: input.sessionId, project: { team: { memberships: { some: { userId: ctx.user.id } } } } },
      include: { project: true },
    });
    if (!session) throw new TRPCError({ code: "NOT_FOUND", message: "Session not found." });
    return next({ ctx: { ...ctx, session } });
  });
