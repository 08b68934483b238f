import "server-only";
import { z } from "zod";
import { createRouter, projectProcedure } from "@/server/api/trpc";
import { UserFacingError } from "@/server/domain/errors";
import { readSandboxRuntime, SandboxRuntime } from "@/server/domain/vocabulary/sandbox-runtime";
import { env } from "@/server/env";
import { logger } from "@/server/logger";

/** How many recent builds the project page lists (the newest one with its whole log). */
const BUILDS_LISTED = 5;

/**
 * A project's sandbox: which container runtime new sessions get (gVisor or runc), and its own image
 * built from `.arbor/Dockerfile` on the default branch (server/sandbox/project-image/).
 */
export const projectSandboxRouter = createRouter({
  get: projectProcedure.query(async ({ ctx }) => {
    const runtimes = (await ctx.app.sandboxes.runtimes?.().catch(() => null)) ?? null;
    const builds = await ctx.db.projectImageBuild.findMany({
      where: { projectId: ctx.project.id },
      orderBy: { startedAt: "desc" },
      take: BUILDS_LISTED,
      select: {
        id: true,
        status: true,
        image: true,
        dockerfile: true,
        commit: true,
        error: true,
        startedAt: true,
        finishedAt: true,
      },
    });
    const newest = builds[0]
      ? await ctx.db.projectImageBuild.findUnique({ where: { id: builds[0].id }, select: { log: true } })
      : null;
    return {
      runtime: readSandboxRuntime(ctx.project.sandboxRuntime),
      /** null: the engine could not be asked. */
      gvisorAvailable: runtimes === null ? null : runtimes.includes("runsc"),
      serverImage: env.ARBOR_SANDBOX_IMAGE,
      /** The project's last good image; null: sessions use the server's image. */
      projectImage: ctx.project.sandboxImage,
      building: ctx.app.projectImages.isBuilding(ctx.project.id) || builds[0]?.status === "building",
      builds,
      newestLog: newest?.log ?? "",
    };
  }),

  /** The runtime of the project's next sessions; gVisor only where the engine has it registered. */
  setRuntime: projectProcedure
    .requires("settings")
    .input(z.object({ runtime: SandboxRuntime }))
    .mutation(async ({ ctx, input }) => {
      if (input.runtime === "runsc") {
        const runtimes = await ctx.app.sandboxes.runtimes?.().catch(() => null);
        if (!runtimes?.includes("runsc"))
          throw new UserFacingError(
            "This server's Docker engine has no gVisor (runsc) runtime. Run scripts/ensure-runsc.sh as root on the server (the start command does), then choose gVisor again.",
            "PRECONDITION_FAILED",
          );
      }
      await ctx.db.project.update({ where: { id: ctx.project.id }, data: { sandboxRuntime: input.runtime } });
      return { runtime: input.runtime };
    }),

  /** Builds the default branch's Dockerfile now (also after a failed build of the same files). */
  rebuildImage: projectProcedure.requires("work").mutation(({ ctx }) => {
    const projectId = ctx.project.id;
    // In the background: the page follows the build's stored log.
    void ctx.app.projectImages
      .rebuild(projectId)
      .catch((error: unknown) => logger.error({ err: error, projectId }, "project image rebuild failed"));
    return { started: true };
  }),
});
