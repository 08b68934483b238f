import { z } from "zod";
import { COMPRESSION_TRIGGERS, CONTEXT_ITEM_KINDS, DROP_KINDS } from "@/server/domain/vocabulary/context";

/**
 * Events of N-tier model escalation (seed 002) and of context compression (seed 001 §7), kept apart
 * from the main union's file so the union stays readable. Members of `EventBody` in `schema.ts`.
 */

/** One tier as the run resolved it: its place in the config, its name and the model behind it. */
export const TierRef = z.object({
  index: z.number().int().nonnegative(),
  name: z.string().max(200),
  provider: z.string().max(100),
  model: z.string().max(500),
  /** Seed 002's mode: simple (one model) or full (Librarian → Artisan → Critic); older logs: simple. */
  mode: z.enum(["simple", "full"]).default("simple"),
  /** Full mode's helper roles played by another model than the tier's, by name (`provider model`). */
  roles: z.record(z.string().max(40), z.string().max(600)).default({}),
  chaos: z.boolean().default(false),
});
export type TierRef = z.infer<typeof TierRef>;

/**
 * The run works with model tiers: every intention starts on tier 0 and climbs as `escalation` says.
 * Appended right after `run-started`; names, providers and models only, never a key or a base URL.
 */
export const TiersConfiguredBody = z.object({
  type: z.literal("tiers-configured"),
  runId: z.string(),
  escalation: z.string().max(100),
  tiers: z.array(TierRef).min(1).max(20),
});

/**
 * An intention moved to a stronger tier. `rule` is what made it leave `from` (a spent cap or one of
 * seed 000's decomposition triggers on that tier's cycles); `reason` says it for a person.
 */
export const TierEscalatedBody = z.object({
  type: z.literal("tier-escalated"),
  runId: z.string(),
  intentionId: z.string(),
  from: TierRef,
  to: TierRef,
  rule: z.string().max(2_000),
  reason: z.string().max(2_000),
});

/**
 * One item a compression left out, shortened or collapsed, named by its id and the SHA-256 of the
 * original; `label` is what the UI shows next to its Restore button.
 */
export const CompressedItem = z.object({
  item: z.enum(CONTEXT_ITEM_KINDS),
  id: z.string().max(200).optional(),
  how: z.enum(DROP_KINDS),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  chars: z.number().int().nonnegative(),
  label: z.string().max(300).optional(),
});
export type CompressedItem = z.infer<typeof CompressedItem>;

/**
 * A model request's context was compressed (the act request, built by server/riva/decide/act-context.ts):
 * earlier attempts summarised (capped per tier and across tiers), verified subtrees collapsed to one
 * line, long texts shortened, so the request's size does not grow with the run. Says what was dropped,
 * not the text. Appended only when the set of dropped items changed since the intention's last one.
 */
export const ContextCompressedBody = z.object({
  type: z.literal("context-compressed"),
  runId: z.string(),
  intentionId: z.string(),
  stage: z.string().max(100),
  /** Why: a history cap dropped something, and/or the uncapped material was over the token threshold. */
  triggers: z.array(z.enum(COMPRESSION_TRIGGERS)).max(3).default([]),
  /** Items left out of the request entirely (only counted or listed by name). */
  omitted: z.number().int().nonnegative(),
  /** Items shown shortened (an attempt as one line, a long text cut). */
  shortened: z.number().int().nonnegative(),
  /** Verified subtrees shown as one line each. */
  collapsed: z.number().int().nonnegative().default(0),
  /** Characters of the context actually sent. */
  keptChars: z.number().int().nonnegative(),
  /** The first 200 items; the counts above are complete. */
  dropped: z.array(CompressedItem).max(200),
});

/**
 * This family's event types (model tiers, an intention's escalation, a compressed request).
 * The union (schema.ts) is every family's tuple; a new type of this family goes here.
 */
export const TIER_EVENTS = [TiersConfiguredBody, TierEscalatedBody, ContextCompressedBody] as const;
