import { ReasoningSwitch, UserMode } from "@/server/domain/vocabulary/session";

/**
 * The person's Chat/Agent mode and reasoning switch, remembered per project in the browser (seed 001
 * §2.1–2.2: user-owned). Only a click changes them; nothing the server sends ever does.
 */
export interface ModeSwitches {
  mode: UserMode;
  reasoning: ReasoningSwitch;
  /** The model picker's choice (a ModelChoice key, see server/settings/model-choices.ts) or "default". */
  model: string;
}

export const DEFAULT_MODEL_CHOICE = "default";
export const DEFAULT_SWITCHES: ModeSwitches = {
  mode: "agent",
  reasoning: "off",
  model: DEFAULT_MODEL_CHOICE,
};

export function switchesKey(projectId: string): string {
  return `arbor-switches:${projectId}`;
}

/** What was stored, or the defaults for anything missing or unreadable (never throws). */
export function parseSwitches(stored: string | null | undefined): ModeSwitches {
  if (!stored) return DEFAULT_SWITCHES;
  try {
    const raw = JSON.parse(stored) as { mode?: unknown; reasoning?: unknown; model?: unknown };
    const mode = UserMode.safeParse(raw.mode);
    const reasoning = ReasoningSwitch.safeParse(raw.reasoning);
    const model = typeof raw.model === "string" && raw.model.length <= 300 ? raw.model : DEFAULT_MODEL_CHOICE;
    return {
      mode: mode.success ? mode.data : DEFAULT_SWITCHES.mode,
      reasoning: reasoning.success ? reasoning.data : DEFAULT_SWITCHES.reasoning,
      model,
    };
  } catch {
    return DEFAULT_SWITCHES;
  }
}

/**
 * The run overrides for the picked model: none for the default; the choice's own for a listed one;
 * `unavailable` when the remembered choice is no longer configured (the person picks again: nothing
 * swaps their model for another on its own).
 */
export function pickedModel<T extends { key: string; model: unknown }>(
  key: string,
  choices: readonly T[] | undefined,
): { model: T["model"] | undefined } | { unavailable: string } {
  if (key === DEFAULT_MODEL_CHOICE) return { model: undefined };
  if (!choices) return { unavailable: key };
  const choice = choices.find((candidate) => candidate.key === key);
  return choice ? { model: choice.model } : { unavailable: key };
}
