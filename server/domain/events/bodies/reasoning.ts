import { z } from "zod";
import { ReasoningOutcome } from "@/server/domain/policy/reasoning-outcome";

/**
 * The person's reasoning switch at work (seed 001 §4) and the model's recoveries (§10). The full
 * reasoning text is kept here for the UI and the replay; later model requests only ever get the
 * compact `outcome` (§4.3), so old reasoning never piles up in the context.
 */

export const REASONING_KINDS = ["macro", "micro"] as const;
export const ReasoningKind = z.enum(REASONING_KINDS);
export type ReasoningKind = z.infer<typeof ReasoningKind>;

/** The longest reasoning text kept; a model that writes more is cut (the outcome is parsed first). */
export const MAX_REASONING_CHARS = 20_000;

/**
 * "macro": the warmup on the user's message (analyze, research, plan, reflect, action, delivery),
 * once per run, before anything is planned. "micro": the short reflection (3–8 bullets) the model
 * wrote with the action of a cycle; `cycleIndex` is the index of the cycle that action became.
 */
export const ReasoningRecordedBody = z.object({
  type: z.literal("reasoning-recorded"),
  runId: z.string(),
  intentionId: z.string().nullable(),
  kind: ReasoningKind,
  cycleIndex: z.number().int().nonnegative().nullable().default(null),
  text: z.string().max(MAX_REASONING_CHARS),
  outcome: ReasoningOutcome,
  modelId: z.string(),
  offline: z.boolean(),
});

/** Seed 001 §10: each way a model answer goes wrong has its own correction prompt. */
export const CORRECTION_KINDS = [
  "empty-response",
  "asks-for-files",
  "invalid-tool-call",
  "failed-tool",
] as const;
export const CorrectionKind = z.enum(CORRECTION_KINDS);
export type CorrectionKind = z.infer<typeof CorrectionKind>;

/**
 * A correction was sent with a retry: which kind, the prompt file it came from, and the problem it
 * answered (capped). The user's mode and reasoning switch are the run's, unchanged: a correction is
 * one more instruction in the same request, never a different kind of request.
 */
export const CorrectionAppliedBody = z.object({
  type: z.literal("correction-applied"),
  runId: z.string(),
  intentionId: z.string().nullable(),
  stage: z.string().max(40),
  kind: CorrectionKind,
  prompt: z.string().max(80),
  problem: z.string().max(2_000),
});

/**
 * This family's event types (the reasoning switch at work and correction prompts).
 * The union (schema.ts) is every family's tuple; a new type of this family goes here.
 */
export const REASONING_EVENTS = [ReasoningRecordedBody, CorrectionAppliedBody] as const;
