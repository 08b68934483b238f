import "server-only";
import { z } from "zod";
import type { Context } from "@/server/api/trpc";
import { createRouter, projectProcedure, sessionProcedure } from "@/server/api/trpc";
import { UserFacingError } from "@/server/domain/errors";
import { pullRequestRequest } from "@/server/domain/remote/pull-request";
import { githubRepositoryOf } from "@/server/domain/remote/remote-url";
import { env } from "@/server/env";
import { defaultBranch } from "@/server/projects/git-repository";
import { openPullRequest } from "@/server/projects/github-pulls";
import { pushBranch } from "@/server/projects/remote-push";
import {
  pinHostKeys,
  RemoteInput,
  readPublicRemote,
  readRemoteAccess,
  removeRemote,
  saveRemote,
} from "@/server/projects/remote-settings";
import { foldSessionLog } from "@/server/runtime/session-runtime";

/**
 * The project's upstream git remote (issue #21.3): its settings (admins; members read "set / not set"
 * only), pushing a session's saved branch to it and opening a GitHub pull request for it (members who
 * may work). The credential never leaves the server: not in an answer, an event or a sandbox.
 */

async function remoteOf(
  ctx: Pick<Context, "db"> & { app: { box: Parameters<typeof readRemoteAccess>[1] } },
  projectId: string,
) {
  const access = await readRemoteAccess(ctx.db, ctx.app.box, projectId);
  if (!access)
    throw new UserFacingError(
      "This project has no remote yet: an admin sets one in the project's settings.",
      "PRECONDITION_FAILED",
    );
  return access;
}

async function assertSaved(ctx: Context, sessionId: string): Promise<void> {
  const running = await ctx.db.run.findFirst({ where: { sessionId, status: "RUNNING" } });
  if (running) throw new UserFacingError("Wait for the run to end (or stop it) first.", "CONFLICT");
  const saved = await ctx.db.event.findFirst({ where: { sessionId, type: "work-saved" } });
  if (!saved)
    throw new UserFacingError(
      "Save the session's work first; then its branch can be pushed.",
      "PRECONDITION_FAILED",
    );
}

export const remoteRouter = createRouter({
  get: projectProcedure.query(({ ctx }) => readPublicRemote(ctx.db, ctx.project.id)),

  save: projectProcedure
    .requires("settings")
    .input(z.object({ remote: RemoteInput }))
    .mutation(({ ctx, input }) => saveRemote(ctx.db, ctx.app.box, ctx.project.id, input.remote, ctx.user.id)),

  remove: projectProcedure.requires("settings").mutation(async ({ ctx }) => {
    await removeRemote(ctx.db, ctx.project.id);
    return { removed: true };
  }),

  /** Pushes the session's saved branch under its own name; a refusal comes back with git's reason. */
  push: sessionProcedure.requires("work").mutation(async ({ ctx }) => {
    await assertSaved(ctx, ctx.session.id);
    const access = await remoteOf(ctx, ctx.session.project.id);
    const { branch } = ctx.session;
    const projectId = ctx.session.project.id;
    const outcome = await pushBranch(ctx.session.project.repoPath, access, branch, (knownHosts) =>
      pinHostKeys(ctx.db, projectId, access.url, knownHosts),
    );
    if (outcome.pushed) {
      await ctx.app.store.append(ctx.session.id, [
        { type: "work-pushed", branch, commit: outcome.commit, remote: access.url, by: ctx.user.name },
      ]);
      return { status: "pushed" as const, branch, commit: outcome.commit, remote: access.url };
    }
    await ctx.app.store.append(ctx.session.id, [
      { type: "work-push-refused", branch, remote: access.url, reason: outcome.reason, by: ctx.user.name },
    ]);
    return { status: "refused" as const, branch, reason: outcome.reason, remote: access.url };
  }),

  /**
   * Opens a pull request of the pushed branch into the project's default branch, on a GitHub remote
   * with a token; its description is built from the session's log (tree, checks, approvals, replay).
   */
  openPullRequest: sessionProcedure.requires("work").mutation(async ({ ctx }) => {
    const access = await remoteOf(ctx, ctx.session.project.id);
    if (access.provider !== "github")
      throw new UserFacingError("Pull requests are opened on GitHub remotes only.", "PRECONDITION_FAILED");
    if (access.credential.kind !== "token")
      throw new UserFacingError(
        "Opening a pull request needs the remote's HTTPS token (a deploy key cannot call GitHub's API).",
        "PRECONDITION_FAILED",
      );
    const repository = githubRepositoryOf(access.url);
    if (!repository)
      throw new UserFacingError("The remote's URL names no owner/repository.", "PRECONDITION_FAILED");
    const pushed = await ctx.db.event.findFirst({
      where: { sessionId: ctx.session.id, type: "work-pushed" },
    });
    if (!pushed)
      throw new UserFacingError(
        "Push the branch first; then a pull request can be opened.",
        "PRECONDITION_FAILED",
      );
    const view = await foldSessionLog(ctx.app.store, ctx.session.id);
    const base = await defaultBranch(ctx.session.project.repoPath);
    const request = pullRequestRequest({
      view,
      title: ctx.session.title,
      head: ctx.session.branch,
      base,
      replayUrl: `${env.NEXTAUTH_URL.replace(/\/+$/, "")}/projects/${ctx.session.project.id}/sessions/${ctx.session.id}/replay`,
    });
    const opened = await openPullRequest(
      env.ARBOR_GITHUB_API_URL,
      repository,
      access.credential.token,
      request,
    );
    await ctx.app.store.append(ctx.session.id, [
      {
        type: "pull-request-opened",
        branch: ctx.session.branch,
        base,
        number: opened.number,
        url: opened.url,
        by: ctx.user.name,
      },
    ]);
    return opened;
  }),
});
