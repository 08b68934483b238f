import { randomUUID } from "node:crypto";
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { createRouter, projectProcedure, protectedProcedure } from "@/server/api/trpc";
import { env } from "@/server/env";
import { CheckpointPolicy, readCheckpointPolicy } from "@/server/policy/checkpoints";
import {
  createEmptyRepository,
  importRepository,
  repoPathFor,
  validateSourceUrl,
} from "@/server/projects/git-repository";

export const CreateProjectInput = z.object({
  name: z.string().trim().min(1, "Give the project a name.").max(100),
  sourceUrl: z.string().trim().max(2_000).optional(),
});

export const projectRouter = createRouter({
  list: protectedProcedure.query(({ ctx }) =>
    ctx.db.project.findMany({
      where: { team: { memberships: { some: { userId: ctx.user.id } } } },
      orderBy: { createdAt: "desc" },
      select: { id: true, name: true, sourceUrl: true, createdAt: true, team: { select: { name: true } } },
    }),
  ),

  create: protectedProcedure.input(CreateProjectInput).mutation(async ({ ctx, input }) => {
    const membership = await ctx.db.membership.findFirst({
      where: { userId: ctx.user.id, role: { in: ["owner", "admin", "member"] } },
      orderBy: { createdAt: "asc" },
    });
    if (!membership)
      throw new TRPCError({
        code: "FORBIDDEN",
        message: "You are not a member of a team that can create projects.",
      });
    const id = randomUUID();
    const repoPath = repoPathFor(env.dataDir, id);
    const source = input.sourceUrl ? validateSourceUrl(input.sourceUrl) : null;
    if (source) await importRepository(repoPath, source);
    else await createEmptyRepository(repoPath, input.name);
    return ctx.db.project.create({
      data: {
        id,
        name: input.name,
        teamId: membership.teamId,
        sourceUrl: source,
        repoPath,
        createdById: ctx.user.id,
      },
      select: { id: true, name: true },
    });
  }),

  getById: projectProcedure.query(({ ctx }) => ({
    id: ctx.project.id,
    name: ctx.project.name,
    sourceUrl: ctx.project.sourceUrl,
    createdAt: ctx.project.createdAt,
    checkpoints: readCheckpointPolicy(ctx.project.checkpointPolicy),
  })),

  /** Which questions go to a person in this project's runs; applies from the next action on. */
  updateCheckpoints: projectProcedure
    .input(z.object({ checkpoints: CheckpointPolicy }))
    .mutation(async ({ ctx, input }) => {
      await ctx.db.project.update({
        where: { id: ctx.project.id },
        data: { checkpointPolicy: JSON.stringify(input.checkpoints) },
      });
      return input.checkpoints;
    }),
});
