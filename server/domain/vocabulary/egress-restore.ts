import type { EgressMode, EgressPhase, EgressSettings } from "./egress";

/**
 * What a session's log says its sandbox's network was when it was last set (`egress-phase-set`):
 * the phase, the mode it got and, on events written since issue #19's restore, the list it had.
 */
export interface RecordedPhase {
  phase: EgressPhase;
  applied: EgressMode;
  getHeadOnly?: boolean;
  /** The project's allow-list as applied; absent on older events (then a Custom phase cannot be restored). */
  allowList?: string[];
}

/** What a restarted server gives a running sandbox back: one phase's settings, and why it is less if it is. */
export interface EgressRestore {
  phase: EgressPhase;
  settings: EgressSettings;
  problem: string | null;
}

const OFF = { mode: "off", getHeadOnly: false } as const;
const RESTART = "After a server restart";

/**
 * The network a sandbox gets back after a restart: what was recorded, never wider, and narrowed to
 * the project's settings as they are now when those are tighter (Off when either says Off, when the
 * modes cannot be compared, or when the record lacks what the phase needs). null: nothing recorded,
 * nothing to restore (the phase is applied as for a new sandbox when the run gets there).
 */
export function restoredEgress(
  recorded: RecordedPhase | null,
  current: EgressSettings | null,
): EgressRestore | null {
  if (!recorded) return null;
  const { phase } = recorded;
  const off = (problem: string | null): EgressRestore => ({
    phase,
    settings: { setup: OFF, agent: OFF, allowList: [], [phase]: OFF },
    problem,
  });
  if (recorded.applied === "off") return off(null);
  if (!current)
    return off(`${RESTART} the project's network settings could not be read: the phase runs Off.`);
  const now = current[phase];
  const getHeadOnly = (recorded.getHeadOnly ?? false) || now.getHeadOnly;
  const as = (mode: EgressMode, allowList: string[], problem: string | null): EgressRestore => ({
    phase,
    settings: { setup: OFF, agent: OFF, allowList, [phase]: { mode, getHeadOnly } },
    problem,
  });
  const tighter = `${RESTART} the project's settings are tighter than this sandbox had: it gets the tighter ones.`;
  if (now.mode === "off") return off(tighter);
  if (recorded.applied === "open")
    return as(now.mode, current.allowList, now.mode === "open" ? null : tighter);
  if (recorded.applied === "registries") {
    if (now.mode === "registries" || now.mode === "open") return as("registries", [], null);
    return off(
      `${RESTART} the phase's mode changed from Package registries only to ${now.mode}: it runs Off.`,
    );
  }
  // Custom: the recorded list, less any entry the project's list no longer has.
  if (!recorded.allowList)
    return off(`${RESTART} the recorded allow-list could not be read (an older event): the phase runs Off.`);
  if (now.mode === "open") return as("custom", recorded.allowList, null);
  if (now.mode !== "custom")
    return off(`${RESTART} the phase's mode changed from Custom allow-list to ${now.mode}: it runs Off.`);
  const kept = recorded.allowList.filter((entry) => current.allowList.includes(entry));
  return as("custom", kept, kept.length === recorded.allowList.length ? null : tighter);
}
