import type { RepoConfigResult } from "@/server/domain/settings/repo-config";
import type { UserSettings } from "@/server/domain/settings/user-config";
import type { Env } from "@/server/env";
import type { PrismaClient } from "@/server/generated/prisma/client";
import {
  LAYER_NAMES,
  type LayerName,
  type ModelSettingValues,
  type ResolvedModelSettings,
  resolveModelSettings,
} from "./layers";
import { readLayer } from "./model-settings";
import { readRepoConfig } from "./repo-config-file";
import type { SecretBox } from "./secret-box";
import { personModelLayer, personSettings } from "./user-layer";

/** The environment layer: ARBOR_MODEL_*; a base URL alone means an OpenAI-compatible server. */
export function environmentLayer(
  env: Pick<
    Env,
    | "ARBOR_MODEL_PROVIDER"
    | "ARBOR_MODEL_BASE_URL"
    | "ARBOR_MODEL_API_KEY"
    | "ARBOR_MODEL_NAME"
    | "ARBOR_MODEL_TIMEOUT_MS"
  >,
): ModelSettingValues {
  const provider = env.ARBOR_MODEL_PROVIDER ?? (env.ARBOR_MODEL_BASE_URL ? "openai-compatible" : undefined);
  return {
    ...(provider ? { provider } : {}),
    ...(env.ARBOR_MODEL_BASE_URL ? { baseUrl: env.ARBOR_MODEL_BASE_URL } : {}),
    ...(env.ARBOR_MODEL_API_KEY ? { apiKey: env.ARBOR_MODEL_API_KEY } : {}),
    ...(env.ARBOR_MODEL_NAME ? { modelName: env.ARBOR_MODEL_NAME } : {}),
    ...(env.ARBOR_MODEL_TIMEOUT_MS ? { timeoutMs: env.ARBOR_MODEL_TIMEOUT_MS } : {}),
  };
}

export interface ResolveDeps {
  db: PrismaClient;
  box: SecretBox;
  environment: ModelSettingValues;
}

export interface ProjectModelSettings {
  resolved: ResolvedModelSettings;
  /**
   * A stored key that would have been used but could not be decrypted (rotated ARBOR_SECRET_KEY,
   * altered row). A run refuses to start with it rather than silently using another key or none.
   */
  keyError: string | null;
  /** `.arbor/config.yaml` on the default branch, as read: absent, used, or skipped with its problem. */
  repoConfig: RepoConfigResult;
}

/** The repository layer's model values (name and timeout only: never a server or a key). */
export function repoModelLayer(repoConfig: RepoConfigResult): ModelSettingValues {
  if (repoConfig.status !== "ok" || !repoConfig.config.model) return {};
  const { name, timeoutMs } = repoConfig.config.model;
  return { ...(name ? { modelName: name } : {}), ...(timeoutMs ? { timeoutMs } : {}) };
}

/**
 * Run overrides > environment > repository > person ("you") > project > team > defaults, for one
 * project; `personId` is whose runs these are (a session's opener), or null for nobody's. `cliLayer`:
 * the server keys of their CLI user file sent with this run, whose model name and timeout beat their
 * stored ones (still under the repository, the environment and the run's own pick).
 */
export async function resolveProjectSettings(
  deps: ResolveDeps,
  project: { id: string; teamId: string; repoPath: string },
  run: ModelSettingValues = {},
  personId: string | null = null,
  cliLayer: UserSettings = {},
): Promise<ProjectModelSettings> {
  const [projectLayer, teamLayer, repoConfig, person] = await Promise.all([
    readLayer(deps.db, deps.box, { kind: "project", projectId: project.id }),
    readLayer(deps.db, deps.box, { kind: "team", teamId: project.teamId }),
    readRepoConfig(project.repoPath),
    personSettings(deps.db, personId),
  ]);
  const resolved = resolveModelSettings({
    run,
    environment: deps.environment,
    repo: repoModelLayer(repoConfig),
    user: { ...personModelLayer(person), ...personModelLayer(cliLayer) },
    project: projectLayer.values,
    team: teamLayer.values,
  });
  const rank = (name: LayerName) => LAYER_NAMES.indexOf(name);
  const broken = (
    [
      ["project", projectLayer],
      ["team", teamLayer],
    ] as const
  ).find(([name, layer]) => layer.keyError !== null && rank(name) < rank(resolved.sources.apiKey));
  return { resolved, keyError: broken?.[1].keyError ?? null, repoConfig };
}
