import { UserFacingError } from "@/server/domain/errors";
import type { UserSettings } from "@/server/domain/settings/user-config";
import { createAgentModel } from "@/server/model";
import { createOfflineModel } from "@/server/model/offline-model";
import type { RunTiers } from "@/server/model/tiers/run-tiers";
import type { Tier, TierConfig } from "@/server/model/tiers/schema";
import type { AgentModel } from "@/server/model/types";
import type { ModelSettingValues, ResolvedModelSettings } from "./layers";
import { type ResolveDeps, resolveProjectSettings } from "./resolve";

/**
 * One model per tier of ARBOR_MODEL_CONFIG for a run in a session. Each tier names its provider and
 * model; where that provider lives (base URL) and its key come from the layered settings, guarded as
 * for any run (a key only goes to the provider and server it was saved for). A tier that cannot be
 * served as written stops the run before it starts, naming the tier: never a silent fallback to the
 * offline model or to another tier.
 */

/** Why `tier` cannot be served with these settings, or null when it can. */
export function tierProblem(tier: Tier, settings: ResolvedModelSettings): string | null {
  const label = `tier "${tier.name}" (${tier.provider} ${tier.model})`;
  if (tier.provider === "openai-compatible" && !settings.baseUrl)
    return `${label} has no server: set ARBOR_MODEL_BASE_URL or an OpenAI-compatible base URL in the project's or team's model settings`;
  if ((tier.provider === "openai" || tier.provider === "anthropic") && !settings.apiKey)
    return `${label} has no API key: set one for ${tier.provider} in the project's or team's model settings (or ARBOR_MODEL_API_KEY)`;
  return null;
}

export async function tierModelsForSession(
  deps: ResolveDeps,
  sessionId: string,
  config: TierConfig,
  overrides: ModelSettingValues = {},
  /** The run's CLI user file: its timeout counts as the person's (a tier's model replaces its name). */
  cliLayer: UserSettings = {},
): Promise<RunTiers> {
  const session = await deps.db.session.findUniqueOrThrow({
    where: { id: sessionId },
    select: { createdById: true, project: { select: { id: true, teamId: true, repoPath: true } } },
  });
  const problems: string[] = [];
  const models: AgentModel[] = [];
  for (const tier of config.tiers) {
    if (tier.provider === "offline") {
      models.push(createOfflineModel());
      continue;
    }
    // The tier's provider and model replace the run's; only the run's timeout still applies.
    const run: ModelSettingValues = {
      provider: tier.provider,
      modelName: tier.model,
      ...(overrides.timeoutMs ? { timeoutMs: overrides.timeoutMs } : {}),
    };
    const { resolved, keyError } = await resolveProjectSettings(
      deps,
      session.project,
      run,
      session.createdById,
      cliLayer,
    );
    const problem = keyError ? `tier "${tier.name}": ${keyError}` : tierProblem(tier, resolved);
    if (problem) problems.push(problem);
    else models.push(createAgentModel(resolved));
  }
  // Every unusable tier at once, so one look at the settings fixes them all.
  if (problems.length > 0)
    throw new UserFacingError(`Model tiers: ${problems.join("; ")}.`, "PRECONDITION_FAILED");
  return { config, models };
}
