import { randomUUID } from "node:crypto";
import { z } from "zod";
import { createRouter, projectProcedure, teamProcedure } from "@/server/api/trpc";
import { permissionsOf } from "@/server/auth/roles";
import { env } from "@/server/env";
import { CheckpointPolicy, readCheckpointPolicy } from "@/server/policy/checkpoints";
import {
  createEmptyRepository,
  importRepository,
  repoPathFor,
  validateSourceUrl,
} from "@/server/projects/git-repository";

export const CreateProjectInput = z.object({
  name: z
    .string()
    .trim()
    .min(1, "Give the project a name.")
    .max(100, "A project name has at most 100 characters."),
  sourceUrl: z.string().trim().max(2_000, "A repository address has at most 2,000 characters.").optional(),
});

export const projectRouter = createRouter({
  /** The projects of one team the caller belongs to (the projects page lets them choose the team). */
  list: teamProcedure.query(({ ctx }) =>
    ctx.db.project.findMany({
      where: { teamId: ctx.team.id },
      orderBy: { createdAt: "desc" },
      select: { id: true, name: true, sourceUrl: true, createdAt: true, team: { select: { name: true } } },
    }),
  ),

  create: teamProcedure
    .requires("createProject")
    .input(CreateProjectInput)
    .mutation(async ({ ctx, input }) => {
      const id = randomUUID();
      const repoPath = repoPathFor(env.dataDir, id);
      const source = input.sourceUrl ? validateSourceUrl(input.sourceUrl) : null;
      if (source) await importRepository(repoPath, source);
      else await createEmptyRepository(repoPath, input.name);
      return ctx.db.project.create({
        data: {
          id,
          name: input.name,
          teamId: ctx.team.id,
          sourceUrl: source,
          repoPath,
          createdById: ctx.user.id,
        },
        select: { id: true, name: true },
      });
    }),

  getById: projectProcedure.query(({ ctx }) => ({
    id: ctx.project.id,
    teamId: ctx.project.teamId,
    role: ctx.role,
    permissions: permissionsOf(ctx.role),
    name: ctx.project.name,
    sourceUrl: ctx.project.sourceUrl,
    createdAt: ctx.project.createdAt,
    checkpoints: readCheckpointPolicy(ctx.project.checkpointPolicy),
  })),

  /** Which questions go to a person in this project's runs; applies from the next action on. */
  updateCheckpoints: projectProcedure
    .requires("settings")
    .input(z.object({ checkpoints: CheckpointPolicy }))
    .mutation(async ({ ctx, input }) => {
      await ctx.db.project.update({
        where: { id: ctx.project.id },
        data: { checkpointPolicy: JSON.stringify(input.checkpoints) },
      });
      return input.checkpoints;
    }),
});
