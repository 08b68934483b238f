import "server-only";
import { z } from "zod";
import { browserTeamProcedure, createRouter, protectedProcedure } from "@/server/api/trpc";
import { createApiToken, revokeApiToken, TOKEN_EXPIRY_DAYS, tokensOf } from "@/server/auth/api-tokens";
import { displayName } from "@/server/domain/text/display-name";
import { Role } from "@/server/domain/vocabulary/team-roles";

const TokenName = displayName({ what: "token name", empty: "Give the token a name.", max: 100 });

/**
 * Personal API tokens (issue #20). Made, listed and revoked in the browser only (a token never makes
 * or revokes tokens); `whoami` is how the CLI learns what its token may reach.
 */
export const apiTokenRouter = createRouter({
  /** The caller's own tokens in this team (names, prefixes, scopes, dates; never a secret). */
  list: browserTeamProcedure.query(({ ctx }) => tokensOf(ctx.db, ctx.user.id, ctx.team.id)),

  /** A new token; its secret is in this answer only. */
  create: browserTeamProcedure
    .input(
      z.object({
        name: TokenName,
        role: Role,
        projectIds: z.array(z.string().min(1)).max(100).default([]),
        expiresInDays: z
          .number()
          .refine((days) => (TOKEN_EXPIRY_DAYS as readonly number[]).includes(days), {
            message: `Choose ${TOKEN_EXPIRY_DAYS.join(", ")} days, or no expiry.`,
          })
          .nullable(),
      }),
    )
    .mutation(({ ctx, input }) =>
      createApiToken(ctx.db, {
        userId: ctx.user.id,
        teamId: ctx.team.id,
        actorRole: ctx.role,
        name: input.name,
        role: input.role,
        projectIds: input.projectIds,
        expiresInDays: input.expiresInDays,
      }),
    ),

  revoke: browserTeamProcedure
    .input(z.object({ tokenId: z.string().min(1) }))
    .mutation(async ({ ctx, input }) => {
      await revokeApiToken(ctx.db, ctx.user.id, input.tokenId);
      return { revoked: input.tokenId };
    }),

  /**
   * Who the caller is and, for a token, what it may reach: its team, the projects (all of the team's
   * when it is not limited) and its role (capped by the member's role today). `arbor status` shows it.
   */
  whoami: protectedProcedure.meta({ tokenCallers: true }).query(async ({ ctx }) => {
    const user = { id: ctx.user.id, name: ctx.user.name, email: ctx.user.email };
    if (!ctx.token) return { user, token: null };
    const scope = ctx.token;
    const membership = await ctx.db.membership.findUnique({
      where: { userId_teamId: { userId: ctx.user.id, teamId: scope.teamId } },
      select: { role: true, team: { select: { id: true, name: true } } },
    });
    const memberRole = Role.safeParse(membership?.role);
    const projects = membership
      ? await ctx.db.project.findMany({
          where: {
            teamId: scope.teamId,
            ...(scope.projectIds.length > 0 ? { id: { in: scope.projectIds } } : {}),
          },
          orderBy: { createdAt: "asc" },
          select: { id: true, name: true },
        })
      : [];
    return {
      user,
      token: {
        name: scope.name,
        role: scope.role,
        memberRole: memberRole.success ? memberRole.data : null,
        team: membership?.team ?? null,
        projects,
        limitedToProjects: scope.projectIds.length > 0,
      },
    };
  }),
});
