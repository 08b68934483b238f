import { z } from "zod";

/**
 * Seed 000's safety limits. Hitting one ends that branch (or the run) as FAILED with the limit named,
 * never silently. Defaults are the seed's; each can be changed by environment (see server/env.ts).
 */
export const RivaLimits = z.object({
  /** Deepest level an intention may have (the root is depth 0). */
  maxDepth: z.number().int().min(0).max(50).default(10),
  /** Action cycles one intention may start before it must decompose or fail. */
  maxCyclesPerIntention: z.number().int().min(1).max(50).default(5),
  /** Action cycles across the whole run. */
  maxIterations: z.number().int().min(1).max(1_000).default(10),
  /** Working time of a run; time spent waiting for a person's answer does not count. */
  wallClockMs: z.number().int().min(1_000).default(300_000),
});
export type RivaLimits = z.infer<typeof RivaLimits>;

/**
 * A run's money and token budget. Spending past it pauses the run and asks a person to grant the
 * same amount again or stop; it never kills the run on its own.
 */
export interface RunBudget {
  maxCostUsd: number | null;
  maxTokens: number | null;
}

export const DEFAULT_LIMITS: RivaLimits = RivaLimits.parse({});
