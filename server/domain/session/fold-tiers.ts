import type { z } from "zod";
import type { ContextRestoredBody } from "@/server/domain/events/bodies/context";
import type {
  ContextCompressedBody,
  TierEscalatedBody,
  TiersConfiguredBody,
} from "@/server/domain/events/tier-schema";
import type { IntentionTierFields, RestoredItemView, SessionView } from "@/server/domain/session/view";

/**
 * The fold of tier and compression events (kept out of fold.ts, which folds everything else). The
 * tier an intention is on lives in the log, so a restarted server continues on the same tier.
 */

/** Frozen: every intention starts from it, so the fold replaces `restored`, never pushes into it. */
export const NO_INTENTION_TIER: Readonly<IntentionTierFields> = Object.freeze({
  tier: null,
  compressed: null,
  restored: Object.freeze([]) as unknown as RestoredItemView[],
});

type TierBody =
  | z.infer<typeof TiersConfiguredBody>
  | z.infer<typeof TierEscalatedBody>
  | z.infer<typeof ContextCompressedBody>
  | z.infer<typeof ContextRestoredBody>;

export function foldTierEvent(view: SessionView, body: TierBody): void {
  switch (body.type) {
    case "tiers-configured": {
      const run = view.runs[body.runId];
      if (run) run.tiers = { escalation: body.escalation, tiers: body.tiers };
      return;
    }
    case "tier-escalated": {
      const intention = view.intentions[body.intentionId];
      if (intention) {
        const since = {
          cycles: intention.cycles.length,
          tokens: intention.tokens,
          costUsd: intention.costUsd,
        };
        const left = {
          index: body.from.index,
          name: body.from.name,
          fromCycle: intention.tier?.since.cycles ?? 0,
        };
        const earlier = [...(intention.tier?.earlier ?? []), left];
        intention.tier = { index: body.to.index, name: body.to.name, since, earlier, reason: body.reason };
      }
      return;
    }
    case "context-compressed": {
      const intention = view.intentions[body.intentionId];
      if (intention)
        intention.compressed = {
          omitted: body.omitted,
          shortened: body.shortened,
          collapsed: body.collapsed,
          keptChars: body.keptChars,
          triggers: body.triggers,
          dropped: body.dropped,
        };
      return;
    }
    case "context-restored": {
      const intention = view.intentions[body.intentionId];
      const item = body.restored;
      if (!intention || intention.restored.some((entry) => entry.id === item.id)) return;
      const restored = {
        id: item.id,
        item: item.item,
        label: item.label,
        sha256: item.sha256,
        by: body.restoredBy.name,
      };
      intention.restored = [...intention.restored, restored];
      return;
    }
  }
}

/** The tier an intention is on, by index; 0 until it escalates. */
export function tierIndexOf(intention: IntentionTierFields): number {
  return intention.tier?.index ?? 0;
}

/** The name of the tier that made cycle number `cycle` (0-based) of the intention. */
export function tierNameOfCycle(intention: IntentionTierFields, cycle: number, firstTier: string): string {
  const tier = intention.tier;
  if (!tier) return firstTier;
  if (cycle >= tier.since.cycles) return tier.name;
  return tier.earlier.findLast((entry) => cycle >= entry.fromCycle)?.name ?? firstTier;
}
