import { TierRef } from "@/server/domain/events/tier-schema";
import type { RunView } from "@/server/domain/session/view";
import type { RunTiers } from "@/server/model/tiers/run-tiers";
import type { AgentModel } from "@/server/model/types";
import { tierRef } from "@/server/riva/decide/tiers";
import { RunModelOverrides } from "@/server/settings/run-overrides";

/**
 * A restart restores a run exactly as it started — the same model, the same tiers, the same mode and
 * reasoning switch — or stops it with the reason. Never a silent stand-in: a run that began on one
 * model and went on with another would mix two models' work under one record.
 */

/** How a run's model and tiers are resolved: the same function the start used (orchestrator.ts). */
export type ResolveRunModel = (
  overrides: RunModelOverrides,
) => Promise<{ model: AgentModel; tiers: RunTiers | null }>;

export class RestoreError extends Error {}

/** The run's recorded overrides, parsed again (older logs: none). A log that no longer parses is refused. */
export function recordedOverrides(run: Pick<RunView, "startedWith">): RunModelOverrides {
  const parsed = RunModelOverrides.safeParse(run.startedWith ?? {});
  if (!parsed.success) throw new RestoreError("its recorded model choice cannot be read back");
  return parsed.data;
}

const modelName = (model: { id: string; provider?: string; offline: boolean }) =>
  model.offline
    ? `the offline model (${model.id})`
    : `${model.provider ? `${model.provider} ` : ""}${model.id}`;

/** Why the model resolved now is not the one the run started with, or null when it is. */
export function modelMismatch(
  recorded: Pick<RunView["model"], "id" | "offline" | "provider">,
  resolved: AgentModel & { provider?: string },
): string | null {
  const sameProvider = recorded.provider === undefined || recorded.provider === resolved.provider;
  if (recorded.id === resolved.id && recorded.offline === resolved.offline && sameProvider) return null;
  return `it started on ${modelName(recorded)} and the settings now give ${modelName(resolved)}`;
}

/** Why the tiers resolved now differ from those recorded at the start (names, providers, models, modes). */
export function tiersMismatch(recorded: RunView["tiers"], resolved: RunTiers | null): string | null {
  if (!recorded && !resolved) return null;
  if (!recorded) return "it started with one model and the settings now declare model tiers";
  if (!resolved)
    return `it started with ${recorded.tiers.length} model tiers and the settings now declare none`;
  const now = resolved.config.tiers.map((_, index) => TierRef.parse(tierRef(resolved.config, index)));
  const then = recorded.tiers.map((ref) => TierRef.parse(ref));
  if (recorded.escalation !== resolved.config.escalation)
    return `its tiers escalated "${recorded.escalation}" and the settings now say "${resolved.config.escalation}"`;
  if (JSON.stringify(now) !== JSON.stringify(then)) {
    const names = (refs: TierRef[]) =>
      refs.map((ref) => `${ref.name} (${ref.provider} ${ref.model})`).join(", ");
    return `it started with tiers ${names(then)} and the settings now give ${names(now)}`;
  }
  return null;
}

/**
 * Resolves the run's model and tiers with its recorded overrides and checks they are what it started
 * with. Throws a RestoreError that says what changed; the caller stops the run with it.
 */
export async function restoreRunModel(
  run: RunView,
  resolve: ResolveRunModel,
): Promise<{ model: AgentModel; tiers: RunTiers | null }> {
  const overrides = recordedOverrides(run);
  let resolved: { model: AgentModel; tiers: RunTiers | null };
  try {
    resolved = await resolve(overrides);
  } catch (error) {
    throw new RestoreError(
      `its model cannot be set up again: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const problem = modelMismatch(run.model, resolved.model) ?? tiersMismatch(run.tiers, resolved.tiers);
  if (problem) throw new RestoreError(problem);
  return resolved;
}

/** The reason a run stops when it cannot be restored faithfully, for the person reading the node. */
export function restoreFailure(error: unknown): string {
  const why = error instanceof Error ? error.message : String(error);
  return `the run could not be resumed as it started: ${why}. Start the task again to use the current settings.`;
}
