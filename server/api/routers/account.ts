import "server-only";
import { createRouter, protectedProcedure } from "@/server/api/trpc";
import { UserSettings } from "@/server/domain/settings/user-config";
import { personSettings, savePersonSettings } from "@/server/settings/user-layer";

/**
 * The caller's own settings layer (issue #20.3): one per person, for the runs of the sessions they
 * open in any team. Browser sessions only — a token is limited to one team, and these reach every
 * team's runs of that person. Nothing here can widen what a run may do: the model is a name (the
 * provider and key stay the project's or team's), everything else only ever tightens (see
 * server/domain/settings/user-config.ts), so any signed-in person may set their own.
 */
export const accountRouter = createRouter({
  settings: protectedProcedure.query(async ({ ctx }) => ({
    settings: await personSettings(ctx.db, ctx.user.id),
  })),

  /** Replaces the caller's layer with `settings` (an empty object clears it); invalid input is refused whole. */
  saveSettings: protectedProcedure.input(UserSettings).mutation(async ({ ctx, input }) => ({
    settings: await savePersonSettings(ctx.db, ctx.user.id, input),
  })),
});
