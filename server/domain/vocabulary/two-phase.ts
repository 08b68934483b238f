import { z } from "zod";

/**
 * The words of seed 002's two-phase runs, as the environment (`ARBOR_FULL_MODE`, `ARBOR_ESCALATION`…)
 * and the tier file name them. Here so `server/env.ts` can validate them without importing the model
 * folder; `server/model/tiers/` builds the tiers from them.
 */

/** How escalation to a stronger tier (or full mode) and decomposition combine. */
export const ESCALATION_POLICIES = [
  "escalate-then-decompose",
  "decompose-then-escalate",
  "escalate-only",
  "decompose-only",
] as const;
export const EscalationPolicy = z.enum(ESCALATION_POLICIES);
export type EscalationPolicy = z.infer<typeof EscalationPolicy>;

/** `escalate`: simple mode, then full mode; `always`: full mode only; `off`: simple mode only. */
export const FULL_MODE_CHOICES = ["escalate", "always", "off"] as const;
export type FullModeChoice = (typeof FULL_MODE_CHOICES)[number];

export interface TwoPhaseOptions {
  full: FullModeChoice;
  /** Iterations an intention gets in simple mode before it counts as failing there (seed 002: 5). */
  simpleIterations: number;
  fullIterations: number;
  escalation: EscalationPolicy;
}

export const TWO_PHASE_DEFAULTS: TwoPhaseOptions = {
  full: "escalate",
  simpleIterations: 5,
  fullIterations: 5,
  escalation: "decompose-then-escalate",
};
