import "server-only";
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import type { Context } from "@/server/api/trpc";
import { createRouter, projectProcedure, teamProcedure } from "@/server/api/trpc";
import { setupSourceLabel } from "@/server/domain/settings/setup-command";
import { UserSettings } from "@/server/domain/settings/user-config";
import { can } from "@/server/domain/vocabulary/team-roles";
import { type ConnectionResult, testConnection } from "@/server/model/connection-test";
import { type ModelSettingValues, resolveModelSettings } from "@/server/settings/layers";
import { modelChoices } from "@/server/settings/model-choices";
import {
  ModelSettingsInput,
  type PublicModelSettings,
  readLayer,
  readPublicSettings,
  type SettingsScope,
  saveSettings,
} from "@/server/settings/model-settings";
import { checkpointRows, repoConfigStatus, runSettingRows } from "@/server/settings/repo-config-view";
import { repoRunSettings } from "@/server/settings/repo-run-settings";
import { resolveProjectSettings } from "@/server/settings/resolve";
import { resolvedRows, settingsFor, withheldNote } from "@/server/settings/view";
import { readEnvironment } from "@/server/setup/environment";

/**
 * Model settings of teams and projects, on the role-checking builders of `server/api/trpc.ts`: anyone
 * in the team reads them; a team's need an owner or admin ("settings"), a project's a member or
 * above ("projectModel"); viewers only read. No procedure returns an API key: the browser gets
 * "set / not set" and at most the last 4 characters.
 */

/**
 * A stored key is never sent to a server other than the one it was saved with: changing the
 * provider or base URL while keeping the key is refused, so whoever may edit settings cannot point
 * someone else's key at an address of their own.
 */
function guardKeptKey(input: ModelSettingsInput, stored: PublicModelSettings): void {
  const serverChanged = input.provider !== stored.provider || input.baseUrl !== stored.baseUrl;
  if (input.apiKey.action === "keep" && stored.apiKey.set && serverChanged)
    throw new TRPCError({
      code: "BAD_REQUEST",
      message:
        "You changed the provider or base URL: enter the API key again (or clear it), so the stored key is never sent to a new server.",
    });
}

/** The entered values as a layer, with the stored key when the person kept it. */
async function enteredLayer(
  ctx: Pick<Context, "db"> & { app: { box: Parameters<typeof readLayer>[1] } },
  scope: SettingsScope,
  input: ModelSettingsInput,
): Promise<{ values: ModelSettingValues; keyError: string | null }> {
  const values: ModelSettingValues = {
    ...(input.provider ? { provider: input.provider } : {}),
    ...(input.baseUrl ? { baseUrl: input.baseUrl } : {}),
    ...(input.modelName ? { modelName: input.modelName } : {}),
    ...(input.timeoutMs ? { timeoutMs: input.timeoutMs } : {}),
  };
  if (input.apiKey.action === "set")
    return { values: { ...values, apiKey: input.apiKey.value }, keyError: null };
  if (input.apiKey.action === "clear") return { values, keyError: null };
  const stored = await readLayer(ctx.db, ctx.app.box, scope);
  return {
    values: { ...values, ...(stored.values.apiKey ? { apiKey: stored.values.apiKey } : {}) },
    keyError: stored.keyError,
  };
}

const SettingsEdit = z.object({ settings: ModelSettingsInput });

/**
 * One tiny real request with the settings as entered (not yet saved), over the stored settings of
 * the layers below (a project's team). The environment layer is left out on purpose: this tests what
 * the person typed. Editors only (it makes the server call an address they choose).
 */
async function testEntered(
  ctx: Pick<Context, "db"> & { app: { box: Parameters<typeof readLayer>[1] } },
  scope: SettingsScope,
  teamId: string,
  input: ModelSettingsInput,
): Promise<ConnectionResult> {
  guardKeptKey(input, await readPublicSettings(ctx.db, scope));
  const entered = await enteredLayer(ctx, scope, input);
  const team =
    scope.kind === "project" ? await readLayer(ctx.db, ctx.app.box, { kind: "team", teamId }) : null;
  const resolved = resolveModelSettings(
    scope.kind === "project" ? { project: entered.values, team: team?.values } : { team: entered.values },
  );
  const keyError =
    entered.keyError ?? (resolved.sources.apiKey === "default" ? team?.keyError : null) ?? null;
  if (keyError) return { ok: false, reason: "other", message: keyError, latencyMs: 0 };
  return testConnection(resolved);
}

export const settingsRouter = createRouter({
  team: teamProcedure.query(async ({ ctx }) => {
    const canEdit = can(ctx.role, "settings");
    const settings = await readPublicSettings(ctx.db, { kind: "team", teamId: ctx.team.id });
    return {
      team: { id: ctx.team.id, name: ctx.team.name },
      settings: settingsFor(settings, canEdit),
      canEdit,
    };
  }),

  updateTeam: teamProcedure
    .requires("settings")
    .input(SettingsEdit)
    .mutation(async ({ ctx, input }) => {
      const scope: SettingsScope = { kind: "team", teamId: ctx.team.id };
      guardKeptKey(input.settings, await readPublicSettings(ctx.db, scope));
      return saveSettings(ctx.db, ctx.app.box, scope, input.settings, ctx.user.id);
    }),

  testTeamConnection: teamProcedure
    .requires("settings")
    .input(SettingsEdit)
    .mutation(({ ctx, input }) =>
      testEntered(ctx, { kind: "team", teamId: ctx.team.id }, ctx.team.id, input.settings),
    ),

  /** The project's own settings, its team's, and what a run would use with where each value comes from. */
  project: projectProcedure.query(async ({ ctx }) => {
    const [own, team] = await Promise.all([
      readPublicSettings(ctx.db, { kind: "project", projectId: ctx.project.id }),
      readPublicSettings(ctx.db, { kind: "team", teamId: ctx.project.teamId }),
    ]);
    // What the caller's own runs use: their own settings are the person layer ("you").
    const { resolved, keyError, repoConfig } = await resolveProjectSettings(
      { db: ctx.db, box: ctx.app.box, environment: ctx.app.environment },
      ctx.project,
      {},
      ctx.user.id,
    );
    const canEdit = can(ctx.role, "projectModel");
    return {
      repoConfig: repoConfigStatus(repoConfig),
      teamId: ctx.project.teamId,
      settings: settingsFor(own, canEdit),
      team: settingsFor(team, canEdit),
      resolved: resolvedRows(resolved, { project: own, team }, { canSeeServer: canEdit }),
      note: withheldNote(resolved),
      keyError,
      canEdit,
    };
  }),

  /**
   * Every setting the project's runs use with its source, the repository's `.arbor/config.yaml`
   * (default branch) included: the model values, the checkpoint policy, run limits and budget, sandbox
   * resources, network and the setup command. Any member (and an API
   * token scoped to the project) may read it; `arbor config list` prints it. `cliConfig`: the
   * server keys of the caller's CLI user file, applied as a run's would be (sources "cli", and what
   * of it is ignored), so `arbor config list --server` shows what its runs would use.
   */
  layers: projectProcedure
    .input(z.object({ cliConfig: UserSettings.optional() }))
    .query(async ({ ctx, input }) => {
      const [own, team] = await Promise.all([
        readPublicSettings(ctx.db, { kind: "project", projectId: ctx.project.id }),
        readPublicSettings(ctx.db, { kind: "team", teamId: ctx.project.teamId }),
      ]);
      const [{ resolved }, settings, { setup }] = await Promise.all([
        // What the caller's own runs use: their own settings are the person layer ("you").
        resolveProjectSettings(
          { db: ctx.db, box: ctx.app.box, environment: ctx.app.environment },
          ctx.project,
          {},
          ctx.user.id,
          input.cliConfig,
        ),
        repoRunSettings(ctx.db, ctx.project, ctx.app.runDefaults, ctx.user.id, input.cliConfig),
        readEnvironment(ctx.db, ctx.project),
      ]);
      const { checkpoints } = settings;
      const { rows, ignored } = runSettingRows(settings);
      return {
        repoConfig: repoConfigStatus(settings.repoConfig),
        model: resolvedRows(
          resolved,
          { project: own, team },
          { canSeeServer: can(ctx.role, "projectModel") },
        ),
        checkpoints: checkpointRows(checkpoints.policy, checkpoints.sources),
        // Limits, budget, sandbox resources and network, each with its source; what the file set but
        // did not count (looser than the layer below) with the reason.
        run: rows,
        ignored,
        // The setup command a new session would run once approved, where it came from, and whether a
        // person approved this exact text (the file's command is proposed, never approved by the file).
        setup: {
          command: setup.command,
          source: setup.source,
          sourceLabel: setup.source ? setupSourceLabel(setup.source, setup.defaultBranch) : null,
          approved: setup.approved,
          repoCommand: setup.repoCommand,
        },
      };
    }),

  /**
   * The chat box's model picker: the default (with where it comes from), the built-in offline model,
   * and every model the settings and tiers name. Names only, never a base URL or a key.
   */
  modelChoices: projectProcedure.query(async ({ ctx }) => {
    const [own, team] = await Promise.all([
      readPublicSettings(ctx.db, { kind: "project", projectId: ctx.project.id }),
      readPublicSettings(ctx.db, { kind: "team", teamId: ctx.project.teamId }),
    ]);
    const { resolved } = await resolveProjectSettings(
      { db: ctx.db, box: ctx.app.box, environment: ctx.app.environment },
      ctx.project,
      {},
      ctx.user.id,
    );
    const environment = ctx.app.environment;
    return modelChoices(resolved, [
      {
        provider: environment.provider ?? null,
        modelName: environment.modelName ?? null,
        from: "environment",
      },
      { provider: own.provider, modelName: own.modelName, from: "project" },
      { provider: team.provider, modelName: team.modelName, from: "team" },
      ...ctx.app.tierModels.map((tier) => ({
        provider: tier.provider,
        modelName: tier.model,
        from: `tier ${tier.name}`,
      })),
    ]);
  }),

  updateProject: projectProcedure
    .requires("projectModel")
    .input(SettingsEdit)
    .mutation(async ({ ctx, input }) => {
      const scope: SettingsScope = { kind: "project", projectId: ctx.project.id };
      guardKeptKey(input.settings, await readPublicSettings(ctx.db, scope));
      return saveSettings(ctx.db, ctx.app.box, scope, input.settings, ctx.user.id);
    }),

  testProjectConnection: projectProcedure
    .requires("projectModel")
    .input(SettingsEdit)
    .mutation(({ ctx, input }) =>
      testEntered(ctx, { kind: "project", projectId: ctx.project.id }, ctx.project.teamId, input.settings),
    ),
});
