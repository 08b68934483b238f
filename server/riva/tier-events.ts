import type { IntentionView } from "@/server/events/fold";
import { tierIndexOf } from "@/server/events/fold-tiers";
import type { EventInput } from "@/server/events/schema";
import type { AgentModel } from "@/server/model/types";
import type { RivaDeps } from "./ports";
import type { EscalateStep, TierAttempts } from "./tier-step";

/** The events of model tiers, built from the pure steps of tier-step.ts, and which model serves a step. */

/** The model of the intention's tier when the run has tiers; else the run's model. */
export function modelFor(deps: Pick<RivaDeps, "model" | "tiers">, intention: IntentionView): AgentModel {
  return deps.tiers?.models[tierIndexOf(intention)] ?? deps.model;
}

export function escalatedEvent(runId: string, step: EscalateStep): EventInput {
  return {
    type: "tier-escalated",
    runId,
    intentionId: step.intention.id,
    from: step.from,
    to: step.to,
    rule: step.rule,
    reason: step.reason,
  };
}

export function compressedEvent(
  runId: string,
  intention: IntentionView,
  compressed: NonNullable<TierAttempts["compressed"]>,
): EventInput {
  return {
    type: "context-compressed",
    runId,
    intentionId: intention.id,
    stage: "act",
    omitted: compressed.omitted,
    shortened: compressed.shortened,
    keptChars: compressed.keptChars,
    dropped: compressed.dropped.map((item) => ({
      item: item.item,
      ...(item.id === undefined ? {} : { id: item.id }),
      how: item.how,
      sha256: item.sha256,
      chars: item.chars,
    })),
  };
}
