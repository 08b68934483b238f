import type { ProviderId } from "@/server/domain/vocabulary/providers";
import type { ResolvedModelSettings } from "./layers";
import type { RunModelOverrides } from "./run-overrides";

/**
 * The chat box's model picker (issue #6): the models a person may pick for their next message. Pure,
 * and safe for the browser: provider and model names only, never a base URL or a key. The picker
 * sends the choice's `model` as the run's overrides; the run resolves it like any run and records the
 * model on `run-started`. Nothing here changes what a person picked: a choice that disappears from the
 * settings is reported by the browser, not silently replaced.
 */
export interface ModelChoice {
  /** Stable across page loads (what the browser remembers): `offline` or `<provider>:<model>`. */
  key: string;
  label: string;
  model: RunModelOverrides;
}

export interface ModelChoices {
  /** "default (gpt-4o — from project)": what a run uses when nothing is picked. */
  defaultLabel: string;
  /** The default is the built-in offline model (the task box then shows what it understands). */
  defaultOffline: boolean;
  choices: ModelChoice[];
}

/** A model a layer or a tier names: its provider (null: the resolved one) and its name. */
export interface KnownModel {
  provider: ProviderId | "offline" | null;
  modelName: string | null;
  /** Where it was found, for the label ("from team", "tier strong"). */
  from: string;
}

export const OFFLINE_CHOICE: ModelChoice = {
  key: "offline",
  label: "Built-in offline model (heuristics, no model service)",
  model: { offline: true },
};

export function modelChoices(resolved: ResolvedModelSettings, known: readonly KnownModel[]): ModelChoices {
  const offline = resolved.provider === "openai-compatible" && !resolved.baseUrl;
  const defaultModel = offline ? "built-in offline model" : resolved.modelName;
  const choices: ModelChoice[] = [OFFLINE_CHOICE];
  const named: KnownModel[] = [
    ...(offline ? [] : [{ provider: resolved.provider, modelName: resolved.modelName, from: "default" }]),
    ...known,
  ];
  for (const model of named) {
    const provider = model.provider ?? resolved.provider;
    const modelName = model.modelName?.trim();
    if (provider === "offline" || !modelName) continue;
    const key = `${provider}:${modelName}`;
    if (choices.some((choice) => choice.key === key)) continue;
    choices.push({ key, label: `${modelName} (${provider}, ${model.from})`, model: { provider, modelName } });
  }
  return {
    defaultLabel: `default (${defaultModel} — from ${resolved.sources.modelName})`,
    defaultOffline: offline,
    choices,
  };
}
