import "server-only";
import { z } from "zod";
import { createRouter, sessionProcedure } from "@/server/api/trpc";
import type { AppContext } from "@/server/app-context";
import { WorkspacePathInput } from "@/server/domain/tools/workspace-path-input";
import { env } from "@/server/env";
import { logger } from "@/server/logger";
import { projectCheckpoints } from "@/server/settings/repo-config-file";
import { personSettings, type UserSettingsDb } from "@/server/settings/user-layer";
import { deleteFile, renameFile } from "@/server/workspace-editor/file-operations";
import { deleteFolder, renameFolder } from "@/server/workspace-editor/folder-operations";
import { type EditorDeps, WorkspaceEditor } from "@/server/workspace-editor/workspace-editor";

/**
 * The session's Files card: a lazy tree, reading and saving files in its sandbox. Everything goes
 * through the tool dispatch (see `WorkspaceEditor`); viewers list and read, members and up save.
 */

/** What the editor may send at once; larger files are for the agent's tools or the terminal. */
const MAX_SAVE_CHARS = 1024 * 1024;

function editorOf(context: EditorContext): WorkspaceEditor {
  return new WorkspaceEditor(editorDeps(context));
}

interface EditorContext {
  app: AppContext;
  db: UserSettingsDb;
  user: { id: string };
  session: { id: string; project: { checkpointPolicy: string; repoPath: string } };
}

function editorDeps({ app, db, user, session }: EditorContext): EditorDeps {
  return {
    sessionId: session.id,
    sandbox: () => app.sandboxes.get(session.id),
    // The repository's .arbor/config.yaml (default branch) over the project's policy, then the editing
    // person's own settings (only ever tighter), as that person's runs use it.
    policy: async () => ({
      checkpoints: (await projectCheckpoints(session.project, await personSettings(db, user.id))).policy,
    }),
    append: (bodies) => app.store.append(session.id, bodies),
    timeoutMs: env.ARBOR_COMMAND_TIMEOUT_MS,
    workspaceMaxBytes: env.ARBOR_WORKSPACE_MAX_MB * 1024 * 1024,
    logger,
  };
}

/** A binding or hash sent back from a question the server asked. */
const Echo = z.string().max(100).nullable().default(null);

export const workspaceRouter = createRouter({
  /** One folder of the workspace (the root without `path`), folders first, `.git` left out. */
  list: sessionProcedure
    .input(z.object({ path: WorkspacePathInput.optional() }))
    .query(({ ctx, input }) => editorOf(ctx).list(input.path)),

  /** A text file with the hash a save must send back; binary and oversized files are refused. */
  read: sessionProcedure
    .input(z.object({ path: WorkspacePathInput }))
    .query(({ ctx, input }) => editorOf(ctx).read(input.path)),

  /**
   * Saves a file if it is still the one opened (`baseHash`; null for a new file). A protected path
   * or a secret comes back as `confirm` with a binding; sending that binding back writes it.
   */
  save: sessionProcedure
    .requires("edit")
    .input(
      z.object({
        path: WorkspacePathInput,
        content: z.string().max(MAX_SAVE_CHARS, "The editor saves files up to 1 MiB."),
        baseHash: z.string().max(100).nullable(),
        confirmBinding: z.string().max(100).nullable().default(null),
      }),
    )
    .mutation(({ ctx, input }) =>
      editorOf(ctx).save({
        path: input.path,
        content: input.content,
        baseHash: input.baseHash,
        confirmBinding: input.confirmBinding,
        person: { userId: ctx.user.id, name: ctx.user.name },
      }),
    ),

  /** A new empty file; an existing path is a conflict, a protected one asks (`confirm`) like a save. */
  create: sessionProcedure
    .requires("edit")
    .input(z.object({ path: WorkspacePathInput, confirmBinding: Echo }))
    .mutation(({ ctx, input }) =>
      editorOf(ctx).create({
        path: input.path,
        confirmBinding: input.confirmBinding,
        person: { userId: ctx.user.id, name: ctx.user.name },
      }),
    ),

  /**
   * Renames a text file (fs.write at `to`, then fs.delete of `from`). `baseHash`: the hash of the
   * open file, if it is open (a changed file is a conflict). Protected paths and secrets ask first.
   */
  rename: sessionProcedure
    .requires("edit")
    .input(
      z.object({ from: WorkspacePathInput, to: WorkspacePathInput, baseHash: Echo, confirmBinding: Echo }),
    )
    .mutation(({ ctx, input }) =>
      renameFile(editorDeps(ctx), { ...input, person: { userId: ctx.user.id, name: ctx.user.name } }),
    ),

  /**
   * Deletes a file. The first call never deletes: it answers `confirm` with the question, its binding
   * and the file's hash; sending both back deletes exactly that file, if it has not changed since.
   */
  delete: sessionProcedure
    .requires("edit")
    .input(z.object({ path: WorkspacePathInput, baseHash: Echo, confirmBinding: Echo }))
    .mutation(({ ctx, input }) =>
      deleteFile(editorDeps(ctx), { ...input, person: { userId: ctx.user.id, name: ctx.user.name } }),
    ),

  /**
   * Renames a folder: each text file written under `to`, then deleted under `from`, then the emptied
   * folders removed. Protected paths and secrets ask first (`confirm`, with the folder's hash to send
   * back as `baseHash`); a binary file, a folder fs.list does not walk or a large folder is refused.
   */
  renameFolder: sessionProcedure
    .requires("edit")
    .input(
      z.object({ from: WorkspacePathInput, to: WorkspacePathInput, baseHash: Echo, confirmBinding: Echo }),
    )
    .mutation(({ ctx, input }) =>
      renameFolder(editorDeps(ctx), { ...input, person: { userId: ctx.user.id, name: ctx.user.name } }),
    ),

  /**
   * Deletes a folder and everything in it. The first call never deletes: it answers `confirm` with
   * how many files go, its binding and the listing's hash; sending both back deletes exactly those.
   */
  deleteFolder: sessionProcedure
    .requires("edit")
    .input(z.object({ path: WorkspacePathInput, baseHash: Echo, confirmBinding: Echo }))
    .mutation(({ ctx, input }) =>
      deleteFolder(editorDeps(ctx), { ...input, person: { userId: ctx.user.id, name: ctx.user.name } }),
    ),
});
