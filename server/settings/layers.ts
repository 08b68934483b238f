import { DEFAULT_BASE_URLS, type ProviderId } from "@/server/domain/vocabulary/providers";

/**
 * Layered model configuration: run overrides > environment > repository (`.arbor/config.yaml` on the
 * default branch) > the person's own settings ("you", name and timeout only) > project > team > defaults. Pure, so
 * every rule is pinned by a table test, and the settings page can show where each value came from.
 *
 * Plain precedence decides the provider, model name and timeout. The base URL and the API key are
 * guarded, because a key sent to the wrong server is a leaked key:
 * - they are taken only from layers that chose the same provider (or chose none), so a team's OpenAI
 *   key never goes to the Anthropic server a project picked;
 * - a key set on a lower layer is withheld when a higher layer changed the base URL, so someone who
 *   may edit a project cannot point the team's key at a server of their own.
 */

export const LAYER_NAMES = ["run", "environment", "repo", "user", "project", "team", "default"] as const;
export type LayerName = (typeof LAYER_NAMES)[number];

export const SETTING_FIELDS = ["provider", "baseUrl", "modelName", "apiKey", "timeoutMs"] as const;
export type SettingField = (typeof SETTING_FIELDS)[number];

/** What one layer sets; an absent field means "inherit from below". */
export interface ModelSettingValues {
  provider?: ProviderId;
  baseUrl?: string;
  modelName?: string;
  apiKey?: string;
  timeoutMs?: number;
}

export type ModelLayers = Partial<Record<Exclude<LayerName, "default">, ModelSettingValues>>;

export const DEFAULT_MODEL_SETTINGS = {
  provider: "openai-compatible" as ProviderId,
  modelName: "gpt-4o-mini",
  timeoutMs: 60_000,
};

export interface ResolvedModelSettings {
  provider: ProviderId;
  /** Undefined only for an OpenAI-compatible provider with no server: the built-in offline model. */
  baseUrl?: string;
  modelName: string;
  apiKey?: string;
  timeoutMs: number;
  /** Which layer each value came from ("default" also when nothing is set at all). */
  sources: Record<SettingField, LayerName>;
  /** Set when a lower layer's key was not used; says which layer and why, for the settings page. */
  keyWithheld?: { from: LayerName; reason: "other-provider" | "base-url-overridden" };
}

const present = (value: string | undefined) => value !== undefined && value.trim() !== "";

export function resolveModelSettings(layers: ModelLayers): ResolvedModelSettings {
  const ordered = LAYER_NAMES.filter((name) => name !== "default").map((name) => ({
    name,
    values: layers[name] ?? {},
  }));
  const first = <K extends SettingField>(field: K, among = ordered) =>
    among.find(({ values }) =>
      field === "timeoutMs" ? values.timeoutMs !== undefined : present(values[field] as string | undefined),
    );

  const providerLayer = first("provider");
  const provider = providerLayer?.values.provider ?? DEFAULT_MODEL_SETTINGS.provider;
  const sameProvider = ordered.filter(
    ({ values }) => values.provider === undefined || values.provider === provider,
  );

  const modelLayer = first("modelName");
  const timeoutLayer = first("timeoutMs");
  const urlLayer = first("baseUrl", sameProvider);
  const keyLayer = first("apiKey", sameProvider);
  const anyKeyLayer = first("apiKey");

  const rank = (name: LayerName) => LAYER_NAMES.indexOf(name);
  let apiKey = keyLayer?.values.apiKey?.trim();
  let keySource: LayerName = keyLayer?.name ?? "default";
  let keyWithheld: ResolvedModelSettings["keyWithheld"];
  if (keyLayer && urlLayer && rank(keyLayer.name) > rank(urlLayer.name)) {
    const sameUrl = keyLayer.values.baseUrl?.trim() === urlLayer.values.baseUrl?.trim();
    if (!sameUrl) {
      keyWithheld = { from: keyLayer.name, reason: "base-url-overridden" };
      apiKey = undefined;
      keySource = "default";
    }
  }
  if (
    !keyWithheld &&
    anyKeyLayer &&
    anyKeyLayer !== keyLayer &&
    (!keyLayer || rank(anyKeyLayer.name) < rank(keyLayer.name))
  ) {
    keyWithheld = { from: anyKeyLayer.name, reason: "other-provider" };
  }

  return {
    provider,
    baseUrl: urlLayer?.values.baseUrl?.trim() ?? DEFAULT_BASE_URLS[provider] ?? undefined,
    modelName: modelLayer?.values.modelName?.trim() ?? DEFAULT_MODEL_SETTINGS.modelName,
    apiKey,
    timeoutMs: timeoutLayer?.values.timeoutMs ?? DEFAULT_MODEL_SETTINGS.timeoutMs,
    sources: {
      provider: providerLayer?.name ?? "default",
      baseUrl: urlLayer?.name ?? "default",
      modelName: modelLayer?.name ?? "default",
      apiKey: keySource,
      timeoutMs: timeoutLayer?.name ?? "default",
    },
    ...(keyWithheld ? { keyWithheld } : {}),
  };
}
