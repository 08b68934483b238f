import "server-only";
import { z } from "zod";
import type { Context } from "@/server/api/trpc";
import { createRouter, sessionProcedure } from "@/server/api/trpc";
import { CommitMessage } from "@/server/api/user-text";
import { UserFacingError } from "@/server/domain/errors";
import { saveSessionWork, workspaceDiff } from "@/server/git/session-work";
import { defaultBranch, deleteBranch, mergeBranch } from "@/server/projects/git-repository";

/**
 * The session's work and the project: save it as the session's branch, merge that branch into the
 * project's default branch, or discard it. Never while a run is going, never a force-push.
 */
async function assertIdle(ctx: Context, sessionId: string): Promise<void> {
  const running = await ctx.db.run.findFirst({ where: { sessionId, status: "RUNNING" } });
  if (running) throw new UserFacingError("Wait for the run to end (or stop it) first.", "CONFLICT");
}

export const workRouter = createRouter({
  /**
   * A lost sandbox (its Docker host stopped answering) made again on a healthy host from the last
   * snapshot; what was done after that snapshot is gone, and the session page says so.
   */
  restartSandbox: sessionProcedure.requires("work").mutation(async ({ ctx }) => {
    if (!ctx.app.restartSandbox)
      throw new UserFacingError(
        "This server runs sandboxes on one Docker engine: there is no other host.",
        "PRECONDITION_FAILED",
      );
    await assertIdle(ctx, ctx.session.id);
    return ctx.app.restartSandbox(ctx.session.id, { name: ctx.user.name });
  }),

  /**
   * The session's changes against its base, for the Changes tab: from the sandbox while it exists
   * (any member may look, as with the Files card), else nothing to show.
   */
  diff: sessionProcedure.query(async ({ ctx }) => {
    const sandbox = await ctx.app.sandboxes.get(ctx.session.id);
    if (!sandbox) return { status: "no-sandbox" as const };
    return { status: "ready" as const, ...(await workspaceDiff(sandbox)) };
  }),

  save: sessionProcedure
    .requires("work")
    .input(
      z.object({
        message: CommitMessage.default(""),
        allowSecrets: z.boolean().default(false),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      await assertIdle(ctx, ctx.session.id);
      const sandbox = await ctx.app.sandboxes.get(ctx.session.id);
      if (!sandbox)
        throw new UserFacingError(
          "This session has no sandbox yet: there is no work to save.",
          "PRECONDITION_FAILED",
        );
      const result = await saveSessionWork(
        sandbox,
        { repoPath: ctx.session.project.repoPath, branch: ctx.session.branch },
        { message: input.message || `Arbor: ${ctx.session.title}`, allowSecrets: input.allowSecrets },
      );
      if (result.status === "blocked") return result;
      await ctx.app.store.append(ctx.session.id, [
        {
          type: "work-saved",
          branch: ctx.session.branch,
          commit: result.commit,
          files: result.files,
          by: ctx.user.name,
          secretsOverridden: result.secretsOverridden,
        },
      ]);
      return result;
    }),

  merge: sessionProcedure.requires("work").mutation(async ({ ctx }) => {
    await assertIdle(ctx, ctx.session.id);
    const { repoPath } = ctx.session.project;
    const into = await defaultBranch(repoPath);
    const saved = await ctx.db.event.findFirst({ where: { sessionId: ctx.session.id, type: "work-saved" } });
    if (!saved)
      throw new UserFacingError(
        "Save the session's work first; then it can be merged.",
        "PRECONDITION_FAILED",
      );
    const commit = await mergeBranch(
      repoPath,
      ctx.session.branch,
      into,
      `Merge ${ctx.session.branch}: ${ctx.session.title}`,
    );
    await ctx.app.store.append(ctx.session.id, [
      { type: "work-merged", branch: ctx.session.branch, into, commit, by: ctx.user.name },
    ]);
    return { into, commit };
  }),

  discard: sessionProcedure.requires("work").mutation(async ({ ctx }) => {
    await assertIdle(ctx, ctx.session.id);
    await deleteBranch(ctx.session.project.repoPath, ctx.session.branch);
    await (await ctx.app.sandboxes.get(ctx.session.id))?.dispose();
    await ctx.app.store.append(ctx.session.id, [
      { type: "work-discarded", branch: ctx.session.branch, by: ctx.user.name },
    ]);
    return { discarded: true };
  }),
});
