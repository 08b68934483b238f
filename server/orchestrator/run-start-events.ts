import { randomUUID } from "node:crypto";
import type { EventInput } from "@/server/domain/events/schema";
import type { RunTiers } from "@/server/model/tiers/run-tiers";
import { tierRef } from "@/server/riva/decide/tiers";

/* The events a run starts with, beside the request itself (pure builders used by startRun). */

/** The run's root intention: the task as given, before discovery and planning. */
export function rootIntention(runId: string, task: string): EventInput {
  return {
    type: "intention-created",
    runId,
    intentionId: randomUUID(),
    parentId: null,
    what: task,
    // Deliberately without check words: whether the task is directly verifiable is for its own words.
    acceptance: "the user's request is fulfilled",
    depth: 0,
    position: 0,
  };
}

/** The run's tiers as recorded in its log: names, providers and models, never a key or a base URL. */
export function tiersConfigured(runId: string, tiers: RunTiers | null): EventInput[] {
  if (!tiers) return [];
  const refs = tiers.config.tiers.map((_, index) => tierRef(tiers.config, index));
  return [{ type: "tiers-configured", runId, escalation: tiers.config.escalation, tiers: refs }];
}
