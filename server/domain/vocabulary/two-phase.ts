import { z } from "zod";

/**
 * The vocabulary of seed 002's two-phase default and tier escalation, shared by the environment
 * (ARBOR_FULL_MODE, ARBOR_ESCALATION), the tier config and the orchestrator.
 *
 * How escalation (a stronger tier) and decomposition (smaller intentions) combine when an
 * intention keeps failing.
 */
export const ESCALATION_POLICIES = [
  "escalate-then-decompose",
  "decompose-then-escalate",
  "escalate-only",
  "decompose-only",
] as const;
export const EscalationPolicy = z.enum(ESCALATION_POLICIES);
export type EscalationPolicy = z.infer<typeof EscalationPolicy>;

/**
 * Seed 002's two-phase default for a run without a tier file: the run's model works alone (simple
 * mode) and, when that is not enough, the same model works in full mode (Librarian → Artisan →
 * Critic). How that combines with seed 000's decomposition is the `escalation` policy; the default,
 * decompose-then-escalate, keeps Arbor's rule first — an intention that keeps failing is split — and
 * spends full mode's extra calls only on an intention that cannot be split (the depth limit, or the
 * model says it is atomic). `full: "always"` skips simple mode (seed 002's `--full`), `"off"` never
 * leaves it (`--no-escalate`).
 */
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
