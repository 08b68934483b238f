import "server-only";
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { createRouter, projectProcedure } from "@/server/api/trpc";
import { SetupCommandInput } from "@/server/domain/settings/setup-command";
import { EgressSettings, REGISTRY_HOSTS } from "@/server/domain/vocabulary/egress";
import {
  approveSetup,
  readEnvironment,
  SecretName,
  saveEgress,
  saveSecret,
  saveSetupCommand,
} from "@/server/setup/environment";

/** Every change here applies to sessions created afterwards; running sessions keep what they have. */
const APPLIES_TO_NEW = "Saved. New sessions use it; sessions already running keep their settings.";

/**
 * A project's sandbox network and setup command. Anyone in the team reads them (secret values never
 * leave the server, only their names); changing them, approving the setup command and setting
 * secrets are project settings (admins and owners).
 */
export const environmentRouter = createRouter({
  get: projectProcedure.query(async ({ ctx }) => ({
    ...(await readEnvironment(ctx.db, ctx.project)),
    registryHosts: [...REGISTRY_HOSTS],
  })),

  saveNetwork: projectProcedure
    .requires("settings")
    .input(z.object({ egress: EgressSettings }))
    .mutation(async ({ ctx, input }) => {
      await saveEgress(ctx.db, ctx.project.id, ctx.user.id, input.egress);
      return { note: APPLIES_TO_NEW };
    }),

  /**
   * null: no own command, so the repository's `.arbor/config.yaml` (default branch) names it, else the
   * lock file. A changed command needs a new approval.
   */
  saveSetupCommand: projectProcedure
    .requires("settings")
    .input(z.object({ command: SetupCommandInput }))
    .mutation(async ({ ctx, input }) => {
      await saveSetupCommand(ctx.db, ctx.project.id, ctx.user.id, input.command);
      const view = await readEnvironment(ctx.db, ctx.project);
      return { note: APPLIES_TO_NEW, approved: view.setup.approved };
    }),

  /** Approves exactly the command the person saw (its hash): a command changed since is refused. */
  approveSetup: projectProcedure
    .requires("settings")
    .input(z.object({ hash: z.string().regex(/^(v2:)?sha256:[0-9a-f]{64}$/) }))
    .mutation(async ({ ctx, input }) => {
      const outcome = await approveSetup(ctx.db, ctx.project, ctx.user.id, input.hash);
      if (outcome === "none")
        throw new TRPCError({ code: "BAD_REQUEST", message: "This project has no setup command." });
      if (outcome === "changed")
        throw new TRPCError({
          code: "CONFLICT",
          message: "The setup command changed since you looked at it: read it again and approve that one.",
        });
      return { note: APPLIES_TO_NEW };
    }),

  setSecret: projectProcedure
    .requires("settings")
    .input(z.object({ name: SecretName, value: z.string().min(1).max(8_192).nullable() }))
    .mutation(async ({ ctx, input }) => {
      await saveSecret(ctx.db, ctx.app.box, ctx.project.id, ctx.user.id, input.name, input.value);
      return { note: APPLIES_TO_NEW };
    }),
});
