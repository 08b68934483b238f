import "server-only";
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { createRouter, protectedProcedure, scopedRole } from "@/server/api/trpc";
import { loadTeamMetrics } from "@/server/dashboard/load";
import { parseRole } from "@/server/domain/vocabulary/team-roles";

export const dashboardRouter = createRouter({
  /**
   * A team's dashboard; without `teamId`, the caller's first team (a token's: its own team). Every
   * role of the team may read it; anyone else gets NOT_FOUND, as for a team that does not exist. A
   * token reaches only its own team, and only when it is not limited to some projects (the dashboard
   * is team-wide).
   */
  team: protectedProcedure
    .meta({ tokenCallers: true })
    .input(z.object({ teamId: z.string().min(1).optional() }).default({}))
    .query(async ({ ctx, input }) => {
      const teamId = input.teamId ?? ctx.token?.teamId;
      const membership = await ctx.db.membership.findFirst({
        where: { userId: ctx.user.id, ...(teamId ? { teamId } : {}) },
        orderBy: { createdAt: "asc" },
        select: { role: true, team: { select: { id: true, name: true } } },
      });
      const role = parseRole(membership?.role);
      if (!membership || !role) throw new TRPCError({ code: "NOT_FOUND", message: "Team not found." });
      scopedRole(ctx.token, { teamId: membership.team.id }, role, "Team not found.");
      const { members, metrics } = await loadTeamMetrics(ctx.db, membership.team.id);
      return { team: membership.team, members, metrics };
    }),
});
