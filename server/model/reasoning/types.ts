import type { ReasoningOutcome } from "@/server/domain/policy/reasoning-outcome";
import type { ModelCallRecord } from "@/server/model/call-record";
import type { RequestContext } from "../request-check";

/** What the warmup (seed 001 §4.1) reads: the user's message and what discovery found. */
export interface WarmupInput {
  task: string;
  repoSummary?: string;
  request?: RequestContext;
}

/** The full warmup text (shown to the person, stored) and the call's record. */
export interface WarmupResult {
  text: string;
  call: ModelCallRecord;
}

/** The only part of earlier reasoning a later request receives (seed 001 §4.3). */
export type ReasoningCarry = ReasoningOutcome;
