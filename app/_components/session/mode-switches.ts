import { ReasoningSwitch, UserMode } from "@/server/events/vocabulary";

/**
 * The person's Chat/Agent mode and reasoning switch, remembered per project in the browser (seed 001
 * §2.1–2.2: user-owned). Only a click changes them; nothing the server sends ever does.
 */
export interface ModeSwitches {
  mode: UserMode;
  reasoning: ReasoningSwitch;
}

export const DEFAULT_SWITCHES: ModeSwitches = { mode: "agent", reasoning: "off" };

export function switchesKey(projectId: string): string {
  return `arbor-switches:${projectId}`;
}

/** What was stored, or the defaults for anything missing or unreadable (never throws). */
export function parseSwitches(stored: string | null | undefined): ModeSwitches {
  if (!stored) return DEFAULT_SWITCHES;
  try {
    const raw = JSON.parse(stored) as { mode?: unknown; reasoning?: unknown };
    const mode = UserMode.safeParse(raw.mode);
    const reasoning = ReasoningSwitch.safeParse(raw.reasoning);
    return {
      mode: mode.success ? mode.data : DEFAULT_SWITCHES.mode,
      reasoning: reasoning.success ? reasoning.data : DEFAULT_SWITCHES.reasoning,
    };
  } catch {
    return DEFAULT_SWITCHES;
  }
}
