import "server-only";
import { z } from "zod";
import { createRouter, protectedProcedure, teamProcedure } from "@/server/api/trpc";
import { lowerRole } from "@/server/auth/api-tokens";
import { UserFacingError } from "@/server/domain/errors";
import { displayName } from "@/server/domain/text/display-name";
import { can, grantableRoles, parseRole, permissionsOf, Role } from "@/server/domain/vocabulary/team-roles";
import { env } from "@/server/env";
import { DEFAULT_INVITE_EXPIRY_DAYS, INVITE_EXPIRY_DAYS } from "@/server/teams/invite-state";
import {
  acceptInvite,
  createInvite,
  describeInvite,
  openInvites,
  revokeInvite,
} from "@/server/teams/invites";
import { changeRole, createTeam, membersOf, removeMember, teamsOf } from "@/server/teams/members";
import { addWebhook, removeWebhook, WebhookUrl, webhooksOf } from "@/server/teams/webhooks";

const InviteToken = z.string().trim().min(1, "The invite link has no token.").max(200);
export const TeamName = displayName({ what: "team name", empty: "Give the team a name.", max: 100 });

export const teamRouter = createRouter({
  /** The team's outgoing webhooks and their delivery log (never a secret). */
  webhooks: teamProcedure.requires("manageWebhooks").query(({ ctx }) => webhooksOf(ctx.db, ctx.team.id)),

  /** Adds a webhook; its signing secret is in this answer only, never shown again. */
  addWebhook: teamProcedure
    .requires("manageWebhooks")
    .input(z.object({ url: WebhookUrl }))
    .mutation(({ ctx, input }) =>
      addWebhook(ctx.db, ctx.app.box, {
        teamId: ctx.team.id,
        url: input.url,
        createdById: ctx.user.id,
        allowedHosts: env.ARBOR_WEBHOOK_ALLOWED_HOSTS,
      }),
    ),

  removeWebhook: teamProcedure
    .requires("manageWebhooks")
    .input(z.object({ webhookId: z.string().min(1).max(100) }))
    .mutation(({ ctx, input }) => removeWebhook(ctx.db, ctx.team.id, input.webhookId)),

  /** Signed-in, own data only: the caller's teams and their role in each (a token's: its own team). */
  list: protectedProcedure.meta({ tokenCallers: true }).query(async ({ ctx }) => {
    const teams = await teamsOf(ctx.db, ctx.user.id);
    const token = ctx.token;
    if (!token) return teams;
    return teams
      .filter((team) => team.id === token.teamId)
      .map((team) => ({ ...team, role: lowerRole(team.role, token.role) }));
  }),

  /** Anyone signed in may start a team; they are its owner. */
  create: protectedProcedure
    .input(z.object({ name: TeamName }))
    .mutation(({ ctx, input }) => createTeam(ctx.db, ctx.user.id, input.name)),

  /** The members page: who is in the team, the caller's role, and open links for those who manage. */
  getById: teamProcedure.query(async ({ ctx }) => ({
    id: ctx.team.id,
    name: ctx.team.name,
    personal: ctx.team.personal,
    role: ctx.role,
    permissions: permissionsOf(ctx.role),
    grantableRoles: grantableRoles(ctx.role),
    members: await membersOf(ctx.db, ctx.team.id),
    invites: can(ctx.role, "manageMembers") ? await openInvites(ctx.db, ctx.team.id) : [],
  })),

  createInvite: teamProcedure
    .requires("manageMembers")
    .input(
      z.object({
        role: Role,
        expiresInDays: z
          .number()
          .refine((days) => (INVITE_EXPIRY_DAYS as readonly number[]).includes(days), {
            message: `Choose ${INVITE_EXPIRY_DAYS.join(", ")} days.`,
          })
          .default(DEFAULT_INVITE_EXPIRY_DAYS),
      }),
    )
    .mutation(({ ctx, input }) =>
      createInvite(ctx.db, {
        teamId: ctx.team.id,
        actor: { userId: ctx.user.id, role: ctx.role },
        role: input.role,
        expiresInDays: input.expiresInDays,
      }),
    ),

  revokeInvite: teamProcedure
    .requires("manageMembers")
    .input(z.object({ inviteId: z.string().min(1) }))
    .mutation(async ({ ctx, input }) => {
      await revokeInvite(ctx.db, ctx.team.id, input.inviteId);
      return { revoked: input.inviteId };
    }),

  changeRole: teamProcedure
    .requires("manageMembers")
    .input(z.object({ userId: z.string().min(1), role: Role }))
    .mutation(({ ctx, input }) =>
      changeRole(ctx.db, {
        teamId: ctx.team.id,
        actor: { userId: ctx.user.id, role: ctx.role },
        userId: input.userId,
        role: input.role,
      }),
    ),

  removeMember: teamProcedure
    .requires("manageMembers")
    .input(z.object({ userId: z.string().min(1) }))
    .mutation(({ ctx, input }) =>
      removeMember(ctx.db, {
        teamId: ctx.team.id,
        actor: { userId: ctx.user.id, role: ctx.role },
        userId: input.userId,
      }),
    ),

  /**
   * Leaving is open to every role, viewers included, so it cannot use the team builder (which keeps
   * viewers from every mutation); it checks membership itself: not a member, NOT_FOUND.
   */
  leave: protectedProcedure
    .input(z.object({ teamId: z.string().min(1) }))
    .mutation(async ({ ctx, input }) => {
      const membership = await ctx.db.membership.findUnique({
        where: { userId_teamId: { userId: ctx.user.id, teamId: input.teamId } },
      });
      const role = parseRole(membership?.role);
      if (!role) throw new UserFacingError("Team not found.", "NOT_FOUND");
      return removeMember(ctx.db, {
        teamId: input.teamId,
        actor: { userId: ctx.user.id, role },
        userId: ctx.user.id,
      });
    }),

  /** The link is the permission (a bearer token): any signed-in holder may see where it leads. */
  inviteInfo: protectedProcedure
    .input(z.object({ token: InviteToken }))
    .query(({ ctx, input }) => describeInvite(ctx.db, input.token, ctx.user.id)),

  acceptInvite: protectedProcedure
    .input(z.object({ token: InviteToken }))
    .mutation(({ ctx, input }) => acceptInvite(ctx.db, input.token, ctx.user.id)),
});
