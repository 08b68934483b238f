import { z } from "zod";
import { createRouter, sessionProcedure } from "@/server/api/trpc";
import type { AppContext } from "@/server/app-context";
import { env } from "@/server/env";
import { logger } from "@/server/logger";
import { readCheckpointPolicy } from "@/server/policy/checkpoints";
import { WorkspacePathInput } from "@/server/tools/paths";
import { WorkspaceEditor } from "@/server/workspace-editor/workspace-editor";

/**
 * The session's Files card: a lazy tree, reading and saving files in its sandbox. Everything goes
 * through the tool dispatch (see `WorkspaceEditor`); viewers list and read, members and up save.
 */

/** What the editor may send at once; larger files are for the agent's tools or the terminal. */
const MAX_SAVE_CHARS = 1024 * 1024;

function editorOf({
  app,
  session,
}: {
  app: AppContext;
  session: { id: string; project: { checkpointPolicy: string } };
}): WorkspaceEditor {
  return new WorkspaceEditor({
    sessionId: session.id,
    sandbox: () => app.sandboxes.get(session.id),
    policy: async () => ({ checkpoints: readCheckpointPolicy(session.project.checkpointPolicy) }),
    append: (bodies) => app.store.append(session.id, bodies),
    timeoutMs: env.ARBOR_COMMAND_TIMEOUT_MS,
    workspaceMaxBytes: env.ARBOR_WORKSPACE_MAX_MB * 1024 * 1024,
    logger,
  });
}

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
});
