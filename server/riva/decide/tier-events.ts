import type { EventInput } from "@/server/domain/events/schema";
import { tierIndexOf } from "@/server/domain/session/fold-tiers";
import type { IntentionView } from "@/server/domain/session/view";
import type { AgentModel } from "@/server/model/types";
import type { RivaDeps } from "../ports";
import type { EscalateStep } from "./tiers";

/** The events of model tiers, built from the pure steps of tiers.ts, and which model serves a step. */

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
