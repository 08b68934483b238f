import type { TierConfig } from "./schema";

/**
 * Which tier works on a failing intention next (seed 002's N-tier escalation combined with seed 000's
 * decomposition). Pure: the loop records usage into a TierState after each iteration, asks
 * `nextTier`, and applies the decision. Global budgets are checked first, so a run that is out of
 * money stops even if a tier still has room.
 */

export interface Usage {
  iterations: number;
  costUsd: number;
  tokens: number;
}

export interface TierState {
  tierIndex: number;
  /** Spent by this intention on the current tier. */
  inTier: Usage;
  /** Spent by the whole run; shared by every intention and tier. */
  total: Usage;
  /** False once this intention was decomposed, or when it cannot be (depth limit, model said atomic). */
  canDecompose: boolean;
}

export type TierDecision =
  | { kind: "stay"; tierIndex: number; reason: string }
  | { kind: "escalate"; from: number; tierIndex: number; reason: string }
  | { kind: "decompose"; tierIndex: number; reason: string }
  | { kind: "stop"; reason: string };

const ZERO: Usage = { iterations: 0, costUsd: 0, tokens: 0 };

export function initialTierState(total: Usage = ZERO, canDecompose = true): TierState {
  return { tierIndex: 0, inTier: ZERO, total, canDecompose };
}

/** One iteration's spend, added to both the tier's and the run's counters. */
export function recordIteration(state: TierState, spent: { costUsd: number; tokens: number }): TierState {
  const add = (usage: Usage): Usage => ({
    iterations: usage.iterations + 1,
    costUsd: usage.costUsd + spent.costUsd,
    tokens: usage.tokens + spent.tokens,
  });
  return { ...state, inTier: add(state.inTier), total: add(state.total) };
}

/** What the loop's state looks like after following a decision. */
export function applyDecision(state: TierState, decision: TierDecision): TierState {
  switch (decision.kind) {
    case "escalate":
      return { ...state, tierIndex: decision.tierIndex, inTier: ZERO };
    case "decompose":
      return { ...state, canDecompose: false };
    default:
      return state;
  }
}

/** Which cap `usage` reached, said for a person; undefined while all have room. */
export function overCap(
  usage: Usage,
  caps: { maxIterations: number; maxCostUsd: number; maxTokens: number },
) {
  if (usage.costUsd >= caps.maxCostUsd) return `$${usage.costUsd.toFixed(4)} of $${caps.maxCostUsd} spent`;
  if (usage.tokens >= caps.maxTokens) return `${usage.tokens} of ${caps.maxTokens} tokens used`;
  if (usage.iterations >= caps.maxIterations)
    return `${usage.iterations} of ${caps.maxIterations} iterations used`;
  return undefined;
}

export function nextTier(state: TierState, config: TierConfig, missed?: string): TierDecision {
  const runOver = overCap(state.total, config.budgets);
  if (runOver) return { kind: "stop", reason: `run budget exhausted: ${runOver}` };
  return tierDecision(state, config, missed);
}

/**
 * The tier part of `nextTier`, for a loop that enforces the run's budgets itself (the live loop asks
 * a person before spending past them). `missed`: a rule that says this tier is failing although its
 * caps have room (seed 000's decomposition triggers on this tier's cycles); it counts like a spent cap.
 */
export function tierDecision(state: TierState, config: TierConfig, missed?: string): TierDecision {
  const tier = config.tiers[state.tierIndex];
  if (!tier)
    return { kind: "stop", reason: `no tier ${state.tierIndex} in a ${config.tiers.length}-tier config` };
  const tierOver = overCap(state.inTier, tier) ?? missed;
  if (!tierOver)
    return { kind: "stay", tierIndex: state.tierIndex, reason: `tier ${tier.name} has budget left` };

  const next = config.tiers[state.tierIndex + 1];
  const escalate = (): TierDecision | undefined =>
    next && {
      kind: "escalate",
      from: state.tierIndex,
      tierIndex: state.tierIndex + 1,
      reason: `tier ${tier.name}: ${tierOver}; escalating to ${next.name}`,
    };
  const decompose = (): TierDecision | undefined =>
    state.canDecompose
      ? {
          kind: "decompose",
          tierIndex: state.tierIndex,
          reason: `tier ${tier.name}: ${tierOver}; decomposing`,
        }
      : undefined;
  const order = {
    "escalate-then-decompose": [escalate, decompose],
    "decompose-then-escalate": [decompose, escalate],
    "escalate-only": [escalate],
    "decompose-only": [decompose],
  }[config.escalation];
  for (const option of order) {
    const decision = option();
    if (decision) return decision;
  }
  return {
    kind: "stop",
    reason: `tier ${tier.name}: ${tierOver}; nothing left under ${config.escalation}`,
  };
}
