import type { TierRef } from "@/server/domain/events/tier-schema";
import { tierIndexOf, tierNameOfCycle } from "@/server/domain/session/fold-tiers";
import type { RivaLimits } from "@/server/domain/session/limits";
import type { IntentionView } from "@/server/domain/session/view";
import { type AttemptView, summarizeFailures } from "@/server/model/context/failure-summary";
import { overCap, type TierState, tierDecision } from "@/server/model/tiers/next-tier";
import type { TierConfig } from "@/server/model/tiers/schema";
import { failureSummary, shouldDecompose } from "./heuristics";
import { attemptedAction } from "./tool-action";

/**
 * N-tier escalation in the live loop (seed 002 with seed 000's decomposition), pure. After a miss on
 * an intention, its current tier is "failing" when one of the tier's caps is spent (maxIterations,
 * maxCostUsd, maxTokens, counted on this tier only) or one of seed 000's decomposition triggers fires
 * on this tier's cycles (two failures, two unclear results, a stall, the cycle limit). Then the
 * config's `escalation` decides: climb to the next tier, decompose, or fail the intention.
 */

export interface EscalateStep {
  kind: "escalate";
  intention: IntentionView;
  from: TierRef;
  to: TierRef;
  /** The rule that fired on `from`, e.g. "2 of 2 iterations used" or "2 failed cycles (…)". */
  rule: string;
  reason: string;
}

/** What the loop does after a miss when the run has tiers. */
export type TierMissStep =
  | { kind: "stay" }
  | EscalateStep
  | {
      kind: "decompose";
      intention: IntentionView;
      trigger: string;
      summary: string;
      /** decompose-then-escalate: when the model says the intention cannot be split, climb instead. */
      fallback?: EscalateStep;
    }
  | { kind: "settle"; intention: IntentionView; status: "FAILED"; reason: string };

export function tierRef(config: TierConfig, index: number): TierRef {
  const tier = config.tiers[index];
  if (!tier) throw new RangeError(`no tier ${index} in a ${config.tiers.length}-tier config`);
  const roles = Object.fromEntries(
    Object.entries(tier.roles).map(([role, model]) => [role, `${model.provider} ${model.model}`]),
  );
  return {
    index,
    name: tier.name,
    provider: tier.provider,
    model: tier.model,
    mode: tier.mode,
    roles,
    chaos: tier.chaos,
  };
}

/** The intention's cycles since it reached its current tier. */
export function cyclesOnTier(intention: IntentionView) {
  return intention.cycles.slice(intention.tier?.since.cycles ?? 0);
}

function tierState(intention: IntentionView, canDecompose: boolean): TierState {
  const since = intention.tier?.since ?? { cycles: 0, tokens: 0, costUsd: 0 };
  return {
    tierIndex: tierIndexOf(intention),
    inTier: {
      iterations: intention.cycles.length - since.cycles,
      costUsd: intention.costUsd - since.costUsd,
      tokens: intention.tokens - since.tokens,
    },
    // Run-wide caps are enforced by the loop itself (a budget question, the iteration limit).
    total: { iterations: 0, costUsd: 0, tokens: 0 },
    canDecompose,
  };
}

export function afterMissWithTiers(
  intention: IntentionView,
  config: TierConfig,
  limits: RivaLimits,
): TierMissStep {
  const gone = tierGone(intention, config);
  if (gone) return gone;
  const canDecompose = intention.depth + 1 <= limits.maxDepth;
  const state = tierState(intention, canDecompose);
  // The stall rule reads every cycle of the intention: a result repeated after an escalation is a stall.
  const trigger = shouldDecompose(cyclesOnTier(intention), limits, intention.cycles);
  const tier = config.tiers[state.tierIndex];
  const rule = (tier && overCap(state.inTier, tier)) ?? (trigger.yes ? trigger.reason : undefined);
  const decision = tierDecision(state, config, trigger.yes ? trigger.reason : undefined);
  switch (decision.kind) {
    case "stay":
      return { kind: "stay" };
    case "escalate":
      return {
        kind: "escalate",
        intention,
        from: tierRef(config, decision.from),
        to: tierRef(config, decision.tierIndex),
        rule: rule ?? decision.reason,
        reason: decision.reason,
      };
    case "decompose": {
      const next = state.tierIndex + 1 < config.tiers.length ? state.tierIndex + 1 : null;
      const fallback: EscalateStep | undefined =
        config.escalation === "decompose-then-escalate" && next !== null
          ? {
              kind: "escalate",
              intention,
              from: tierRef(config, state.tierIndex),
              to: tierRef(config, next),
              rule: rule ?? decision.reason,
              reason: `tier ${tier?.name}: ${rule}; it cannot be decomposed; escalating to ${config.tiers[next]?.name}`,
            }
          : undefined;
      return {
        kind: "decompose",
        intention,
        trigger: decision.reason,
        summary: failureSummary(intention.cycles),
        ...(fallback ? { fallback } : {}),
      };
    }
    case "stop": {
      const depth = canDecompose
        ? ""
        : `; it cannot be decomposed: limit reached: max depth (${limits.maxDepth})`;
      return { kind: "settle", intention, status: "FAILED", reason: `${decision.reason}${depth}` };
    }
  }
}

/**
 * An intention on a tier the config no longer has (the file changed across a restart) fails, naming
 * it, instead of being served by some other model.
 */
export function tierGone(
  intention: IntentionView,
  config: TierConfig,
): Extract<TierMissStep, { kind: "settle" }> | null {
  const index = tierIndexOf(intention);
  if (index < config.tiers.length) return null;
  const reason = `model tiers: the intention is on tier ${index + 1} ("${intention.tier?.name ?? "?"}"), but the model config has ${config.tiers.length}`;
  return { kind: "settle", intention, status: "FAILED", reason };
}

/** What the next tier reads about earlier attempts in short (the offline model's list). */
export interface TierAttempts {
  previousAttempts: string[];
}

/**
 * Seed 002's capped failure summary: the latest attempts of the current tier, a few of each earlier
 * tier, 2000 characters per tier and 4000 in all. One entry per tier, current tier first. The act
 * request itself carries the same summary through act-context.ts, which records what it left out.
 */
export function tierAttempts(intention: IntentionView, config: TierConfig): TierAttempts {
  const firstTier = config.tiers[0]?.name ?? "0";
  const attempts: AttemptView[] = intention.cycles.flatMap((cycle, index) =>
    cycle.judgment === null
      ? []
      : [
          {
            id: cycle.id,
            cycle: index + 1,
            tier: tierNameOfCycle(intention, index, firstTier),
            thought: cycle.thought,
            action: attemptedAction(cycle.action),
            result: cycle.error ?? cycle.output ?? "",
            judgment: cycle.judgment,
            ...(cycle.reflection ? { reflection: cycle.reflection } : {}),
          },
        ],
  );
  if (attempts.length === 0) return { previousAttempts: [] };
  return { previousAttempts: summarizeFailures(attempts).text.split("\n\n") };
}
