import { tierIndexOf } from "@/server/domain/session/fold-tiers";
import type { IntentionView, SessionView } from "@/server/domain/session/view";

/**
 * The model tier an intention works on (when the run has tiers), with the model behind it. It comes
 * from the log, so a replay shows it as it was.
 */
export function NodeTier({ view, intention }: { view: SessionView; intention: IntentionView }) {
  const tiers = view.runs[intention.runId]?.tiers;
  if (!tiers || intention.childIds.length > 0) return null;
  const index = tierIndexOf(intention);
  const tier = tiers.tiers[index];
  if (!tier) return null;
  return (
    <span
      className="badge info"
      data-testid="intention-tier"
      data-tier={index}
      data-mode={tier.mode}
      title={`${tier.provider} ${tier.model}, ${tier.mode} mode (tier ${index + 1} of ${tiers.tiers.length}, ${tiers.escalation})`}
    >
      tier {tier.name}
      {tier.mode === "full" && tier.name !== "full" ? " · full mode" : ""}
    </span>
  );
}

/** Why the intention climbed to its tier (what its requests left out is node-context.tsx's). */
export function NodeTierNotes({ intention }: { intention: IntentionView }) {
  if (!intention.tier) return null;
  return (
    <div className="muted small" data-testid="intention-escalation">
      escalated: {intention.tier.reason}
    </div>
  );
}
