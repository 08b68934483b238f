import "server-only";
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { createRouter, projectProcedure } from "@/server/api/trpc";
import { IntentId } from "@/server/domain/vocabulary/project-intents";
import { can } from "@/server/domain/vocabulary/team-roles";
import { IntentFields, nextIntentId, ProjectIntent } from "@/server/intents/project-intent";
import { pushIntentsToRunningSessions } from "@/server/intents/push";
import { createIntent, listIntents, type SaveOutcome, updateIntent } from "@/server/intents/store";
import { logger } from "@/server/logger";

/**
 * A project's intents (seed 003), on the role-checking builders: anyone in the team reads them,
 * members and above add, edit and retire them ("editIntents"), viewers never change them. After a
 * change the sessions with a run going get the new `.orchestration/active_intents.yaml` at once;
 * the others get it when their next run prepares the sandbox.
 */

function saved(outcome: SaveOutcome) {
  if (!outcome.ok) throw new TRPCError({ code: outcome.code, message: outcome.message });
  return outcome.intent;
}

export const intentRouter = createRouter({
  list: projectProcedure.query(async ({ ctx }) => {
    const intents = await listIntents(ctx.db, ctx.project.id);
    return {
      intents,
      canEdit: can(ctx.role, "editIntents"),
      suggestedId: nextIntentId(intents.map((intent) => intent.intentId)),
    };
  }),

  create: projectProcedure
    .requires("editIntents")
    .input(z.object({ intent: ProjectIntent }))
    .mutation(async ({ ctx, input }) => {
      const intent = saved(await createIntent(ctx.db, ctx.project.id, input.intent, ctx.user.id));
      const mirroredTo = await pushIntentsToRunningSessions(
        { db: ctx.db, sandboxes: ctx.app.sandboxes, logger },
        ctx.project.id,
      );
      return { intent, mirroredTo };
    }),

  update: projectProcedure
    .requires("editIntents")
    .input(z.object({ intentId: IntentId, fields: IntentFields }))
    .mutation(async ({ ctx, input }) => {
      const intent = saved(
        await updateIntent(ctx.db, ctx.project.id, input.intentId, input.fields, ctx.user.id),
      );
      const mirroredTo = await pushIntentsToRunningSessions(
        { db: ctx.db, sandboxes: ctx.app.sandboxes, logger },
        ctx.project.id,
      );
      return { intent, mirroredTo };
    }),

  /** Retired: kept for the record and shown on the card, no longer in the workspace's file. */
  retire: projectProcedure
    .requires("editIntents")
    .input(z.object({ intentId: IntentId }))
    .mutation(async ({ ctx, input }) => {
      const current = (await listIntents(ctx.db, ctx.project.id)).find(
        (intent) => intent.intentId === input.intentId,
      );
      if (!current)
        throw new TRPCError({ code: "NOT_FOUND", message: `This project has no intent ${input.intentId}.` });
      const intent = saved(
        await updateIntent(
          ctx.db,
          ctx.project.id,
          input.intentId,
          { ...current, status: "RETIRED" },
          ctx.user.id,
        ),
      );
      const mirroredTo = await pushIntentsToRunningSessions(
        { db: ctx.db, sandboxes: ctx.app.sandboxes, logger },
        ctx.project.id,
      );
      return { intent, mirroredTo };
    }),
});
