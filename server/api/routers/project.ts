import { randomUUID } from "node:crypto";
import { TRPCError } from "@trpc/server";
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
import { serverResourcePolicy } from "@/server/sandbox/resource-policy";
import {
  effectiveResources,
  ProjectResources,
  readProjectResources,
  resourceProblems,
} from "@/server/sandbox/resources";

export const CreateProjectInput = z.object({
  name: z.string().trim().min(1, "Give the project a name.").max(100),
  sourceUrl: z.string().trim().max(2_000).optional(),
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
    resources: resourcesView(ctx.project.sandboxResources),
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

  /**
   * The project's sandbox resources (CPU, memory, pids, /workspace size) within the server's caps;
   * every value over a cap is named at once. Applies to sandboxes made from now on.
   */
  updateResources: projectProcedure
    .requires("settings")
    .input(z.object({ resources: ProjectResources }))
    .mutation(async ({ ctx, input }) => {
      const problems = resourceProblems(input.resources, serverResourcePolicy());
      if (problems.length > 0) throw new TRPCError({ code: "BAD_REQUEST", message: problems.join(" ") });
      const saved = await ctx.db.project.update({
        where: { id: ctx.project.id },
        data: { sandboxResources: JSON.stringify(input.resources) },
        select: { sandboxResources: true },
      });
      return resourcesView(saved.sandboxResources);
    }),
});

/** What the settings card shows: the project's own values, what sessions get, and the server's bounds. */
function resourcesView(json: string) {
  const policy = serverResourcePolicy();
  const own = readProjectResources(json);
  return { own, effective: effectiveResources(own, policy), defaults: policy.defaults, caps: policy.caps };
}
