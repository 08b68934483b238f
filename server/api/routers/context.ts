import "server-only";
import { z } from "zod";
import { createRouter, sessionProcedure } from "@/server/api/trpc";
import { restoreContextItem } from "@/server/orchestrator/context-restore";

/** What a compression left out of an intention's requests, and putting an item back (issue #4). */
export const contextRouter = createRouter({
  /** Those who may approve restore an item; viewers are refused like for any approval. */
  restore: sessionProcedure
    .requires("approve")
    .input(
      z.object({
        runId: z.string().min(1),
        intentionId: z.string().min(1),
        itemId: z.string().min(1).max(200),
      }),
    )
    .mutation(({ ctx, input }) =>
      restoreContextItem(ctx.app.store, {
        sessionId: ctx.session.id,
        runId: input.runId,
        intentionId: input.intentionId,
        itemId: input.itemId,
        actor: { userId: ctx.user.id, name: ctx.user.name },
      }),
    ),
});
