import "server-only";
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { createRouter, protectedProcedure } from "@/server/api/trpc";
import { loadTeamMetrics } from "@/server/dashboard/load";

export const dashboardRouter = createRouter({
  /**
   * A team's dashboard; without `teamId`, the caller's first team. Every role of the team may read
   * it; anyone else gets NOT_FOUND, as for a team that does not exist.
   */
  team: protectedProcedure
    .input(z.object({ teamId: z.string().min(1).optional() }).default({}))
    .query(async ({ ctx, input }) => {
      const membership = await ctx.db.membership.findFirst({
        where: { userId: ctx.user.id, ...(input.teamId ? { teamId: input.teamId } : {}) },
        orderBy: { createdAt: "asc" },
        select: { team: { select: { id: true, name: true } } },
      });
      if (!membership) throw new TRPCError({ code: "NOT_FOUND", message: "Team not found." });
      const { members, metrics } = await loadTeamMetrics(ctx.db, membership.team.id);
      return { team: membership.team, members, metrics };
    }),
});
