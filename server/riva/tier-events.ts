import type { IntentionView } from "@/server/events/fold";
import type { EventInput } from "@/server/events/schema";
import type { EscalateStep, TierAttempts } from "./tier-step";

/** The events of model tiers, built from the pure steps of tier-step.ts. */

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
