import { UserFacingError } from "@/server/domain/errors";
import type { UserSettings } from "@/server/domain/settings/user-config";
import { createAgentModel, createOfflineModel } from "@/server/model";
import type { AiSdkModel } from "@/server/model/ai-sdk-model";
import type { AgentModel } from "@/server/model/types";
import type { ModelSettingValues } from "./layers";
import { type ResolveDeps, resolveProjectSettings } from "./resolve";

/** A run's model overrides as a person may send them: settings values, or the offline model. */
export type RunModelChoice = ModelSettingValues & { offline?: true };

/**
 * The model for a new run in a session: its project's resolved settings with the run's overrides on
 * top, and the run's CLI user file (`cliLayer`) over its opener's own settings. A stored key that no
 * longer decrypts stops the run before it starts, with the reason.
 */
export async function modelForSession(
  deps: ResolveDeps,
  sessionId: string,
  overrides: RunModelChoice,
  cliLayer: UserSettings = {},
): Promise<AgentModel & Partial<Pick<AiSdkModel, "provider">>> {
  // The person picked the built-in offline model for this run: no settings are read or used.
  if (overrides.offline) return createOfflineModel();
  const session = await deps.db.session.findUniqueOrThrow({
    where: { id: sessionId },
    select: { createdById: true, project: { select: { id: true, teamId: true, repoPath: true } } },
  });
  const { offline: _, ...values } = overrides;
  // The session's opener's own settings are the person layer of its runs.
  const { resolved, keyError } = await resolveProjectSettings(
    deps,
    session.project,
    values,
    session.createdById,
    cliLayer,
  );
  if (keyError) throw new UserFacingError(keyError, "PRECONDITION_FAILED");
  return createAgentModel(resolved);
}
