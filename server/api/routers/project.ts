import "server-only";
import { randomUUID } from "node:crypto";
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { createRouter, projectProcedure, teamProcedure } from "@/server/api/trpc";
import { CheckpointPolicy, readCheckpointPolicy } from "@/server/domain/policy/checkpoints";
import { displayName } from "@/server/domain/text/display-name";
import { SAMPLE_PROJECTS, SampleProjectId } from "@/server/domain/vocabulary/sample-projects";
import { ProjectResources } from "@/server/domain/vocabulary/sandbox-resources";
import { permissionsOf } from "@/server/domain/vocabulary/team-roles";
import { env } from "@/server/env";
import { logger } from "@/server/logger";
import {
  createEmptyRepository,
  defaultBranchInstructions,
  importRepository,
  removeRepository,
  repoPathFor,
  repositorySummary,
} from "@/server/projects/git-repository";
import { resolveImportSource } from "@/server/projects/import-source";
import { importCredential, RemoteCredentialInput, remoteForImport } from "@/server/projects/remote-settings";
import { createSampleRepository } from "@/server/projects/sample-project";
import { serverResourcePolicy } from "@/server/sandbox/resource-policy";
import { effectiveResources, readProjectResources, resourceProblems } from "@/server/sandbox/resources";
import { deleteProject } from "@/server/teams/project-deletion";

export const CreateProjectInput = z.object({
  name: displayName({ what: "project name", empty: "Give the project a name.", max: 100 }),
  sourceUrl: z.string().trim().max(2_000, "A repository address has at most 2,000 characters.").optional(),
  /** The team's credential for a private remote (issue #21.3): used to clone, then kept sealed. */
  credential: RemoteCredentialInput.optional(),
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
      const source = input.sourceUrl
        ? await resolveImportSource(input.sourceUrl, {
            localRoot: env.ARBOR_IMPORT_LOCAL_ROOT,
            dataDir: env.dataDir,
          })
        : null;
      // The network source becomes the project's upstream remote, with the credential sealed for it.
      const remote =
        source?.kind === "network"
          ? remoteForImport(ctx.app.box, id, source.url, input.credential, ctx.user.id)
          : null;
      // Everything is validated by now; a repository is only made for a project that will exist, and a
      // failure after it was made removes it again.
      try {
        // An SSH remote's host key, seen at the clone, is pinned with the remote (trust on first use).
        let knownHosts: string | null = null;
        if (source)
          await importRepository(repoPath, source, importCredential(input.credential), async (learned) => {
            knownHosts = learned;
          });
        else await createEmptyRepository(repoPath, input.name);
        return await ctx.db.project.create({
          data: {
            id,
            name: input.name,
            teamId: ctx.team.id,
            sourceUrl: input.sourceUrl?.trim() ?? null,
            repoPath,
            createdById: ctx.user.id,
            ...(remote ? { remote: { create: { ...remote, sshKnownHosts: knownHosts } } } : {}),
          },
          select: { id: true, name: true },
        });
      } catch (error) {
        await removeRepository(repoPath);
        throw error;
      }
    }),

  /**
   * A sample project in one click (issue #17.3): a fresh repository of a sample shipped in this repo,
   * in a team the caller may create projects in. Returns the suggested first task with it.
   */
  createSample: teamProcedure
    .requires("createProject")
    .input(z.object({ sample: SampleProjectId }))
    .mutation(async ({ ctx, input }) => {
      const sample = SAMPLE_PROJECTS[input.sample];
      const id = randomUUID();
      const repoPath = repoPathFor(env.dataDir, id);
      try {
        await createSampleRepository(repoPath, sample);
        const project = await ctx.db.project.create({
          data: {
            id,
            name: sample.name,
            teamId: ctx.team.id,
            sourceUrl: null,
            repoPath,
            createdById: ctx.user.id,
          },
          select: { id: true, name: true },
        });
        return { ...project, task: sample.task };
      } catch (error) {
        await removeRepository(repoPath);
        throw error;
      }
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

  /** What the project holds (root files, recent commits, branches), for its page; any member may look. */
  repository: projectProcedure.query(({ ctx }) => repositorySummary(ctx.project.repoPath)),
  /**
   * The project's AGENTS.md / CLAUDE.md as the default branch has them (issue #21.1): what every run
   * of the project sends the model. Read from the project's own repository only.
   */
  instructions: projectProcedure.query(async ({ ctx }) => ({
    files: await defaultBranchInstructions(ctx.project.repoPath),
  })),

  /**
   * Deletes the project with everything Arbor keeps of it (server/teams/project-deletion.ts): team
   * admins and owners, signed in through the browser, typing the project's exact name. A wrong name
   * touches nothing.
   */
  /** What deleting the project would remove, for the dialog that asks: its sessions and running runs. */
  deletionSummary: projectProcedure.query(async ({ ctx }) => {
    const where = { projectId: ctx.project.id };
    const [sessions, runningRuns] = await Promise.all([
      ctx.db.session.count({ where }),
      ctx.db.run.count({ where: { status: "RUNNING", session: where } }),
    ]);
    return { sessions, runningRuns };
  }),

  delete: projectProcedure
    .requires("deleteProject")
    .input(z.object({ confirmName: z.string().max(200) }))
    .mutation(async ({ ctx, input }) => {
      // Irreversible: not for API tokens, whatever their role (a leaked token cannot wipe a project).
      if (ctx.token)
        throw new TRPCError({
          code: "FORBIDDEN",
          message: "API tokens cannot delete projects. Sign in to Arbor in the browser to do it.",
        });
      if (input.confirmName !== ctx.project.name)
        throw new TRPCError({
          code: "BAD_REQUEST",
          message: "Type the project's exact name to delete it. Nothing was deleted.",
        });
      const { orchestrator, sandboxes, projectImages } = ctx.app;
      // An image that finished building after the delete would be left behind, labelled with a gone id.
      if (projectImages.isBuilding(ctx.project.id))
        throw new TRPCError({
          code: "CONFLICT",
          message: "The project's sandbox image is being built. Delete the project once the build ends.",
        });
      return deleteProject(
        {
          db: ctx.db,
          sandboxes,
          stopRun: (sessionId, runId, actor) => orchestrator.stop(sessionId, runId, actor),
          dataDir: env.dataDir,
          log: logger,
        },
        ctx.project,
        { userId: ctx.user.id, name: ctx.user.name },
      );
    }),

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
