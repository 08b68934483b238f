import { PROVIDER_LABELS } from "@/server/domain/vocabulary/providers";
import { displayUrl } from "@/server/model/to-model-error";
import type { LayerName, ResolvedModelSettings, SettingField } from "./layers";
import type { PublicModelSettings } from "./model-settings";

/** One line of "what this project's runs will use, and why", safe for the browser (no key). */
export interface ResolvedRow {
  field: SettingField;
  label: string;
  value: string;
  source: LayerName;
}

const LABELS: Record<SettingField, string> = {
  provider: "Provider",
  baseUrl: "Base URL",
  modelName: "Model",
  apiKey: "API key",
  timeoutMs: "Timeout",
};

function keyText(
  resolved: ResolvedModelSettings,
  stored: Partial<Record<LayerName, PublicModelSettings>>,
): string {
  if (!resolved.apiKey) return "not set";
  const hint = stored[resolved.sources.apiKey]?.apiKey.hint;
  return hint ? `set (ends in ${hint})` : "set";
}

/** What a person who cannot change the settings sees instead of a model server's address. */
export const HIDDEN_BASE_URL = "hidden (only people who can change these settings see the server's address)";

/**
 * Settings as a person may see them: the server's address is internal (it may name a host on the
 * private network), so only those who can change the settings get it.
 */
export function settingsFor(settings: PublicModelSettings, canSeeServer: boolean) {
  return canSeeServer
    ? { ...settings, baseUrlHidden: false }
    : { ...settings, baseUrl: null, baseUrlHidden: settings.baseUrl !== null };
}

export function resolvedRows(
  resolved: ResolvedModelSettings,
  stored: Partial<Record<LayerName, PublicModelSettings>>,
  options: { canSeeServer: boolean } = { canSeeServer: true },
): ResolvedRow[] {
  const values: Record<SettingField, string> = {
    provider: PROVIDER_LABELS[resolved.provider],
    baseUrl: !resolved.baseUrl
      ? "none: the built-in offline model answers"
      : options.canSeeServer
        ? displayUrl(resolved.baseUrl)
        : HIDDEN_BASE_URL,
    // With no server the offline model answers, whatever name is set: say so, not the unused name.
    modelName: resolved.baseUrl
      ? resolved.modelName
      : `built-in offline model (heuristics); "${resolved.modelName}" applies once a base URL is set`,
    apiKey: keyText(resolved, stored),
    timeoutMs: `${resolved.timeoutMs} ms`,
  };
  return (Object.keys(LABELS) as SettingField[]).map((field) => ({
    field,
    label: LABELS[field],
    value: values[field],
    source: resolved.sources[field],
  }));
}

/** Why a key that is set somewhere is not used, in a sentence. */
export function withheldNote(resolved: ResolvedModelSettings): string | null {
  if (!resolved.keyWithheld) return null;
  const { from, reason } = resolved.keyWithheld;
  return reason === "other-provider"
    ? `The ${from} API key is for another provider, so it is not used.`
    : `The ${from} API key is not sent to a base URL set at a higher layer; set a key next to that base URL.`;
}
