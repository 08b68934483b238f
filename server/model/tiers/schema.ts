import { z } from "zod";

/**
 * N-tier model escalation config (seed 002): tiers from cheap to strong, each with its own iteration,
 * money and token budget, global caps for the whole run, how escalation and decomposition combine,
 * and what each model costs. Objects are strict so a typo (`maxCost` for `maxCostUsd`) is reported
 * instead of silently falling back to no limit.
 */

import { EscalationPolicy } from "@/server/domain/vocabulary/two-phase";

export { EscalationPolicy } from "@/server/domain/vocabulary/two-phase";

export const PROVIDERS = ["openai", "anthropic", "openai-compatible", "offline"] as const;
export const Provider = z.enum(PROVIDERS);
export type Provider = z.infer<typeof Provider>;

const name = z.string().trim().min(1);
const positiveInt = z.number().int().positive();
const positiveUsd = z.number().positive();

/**
 * Seed 002's two modes. `simple`: one model (the Artisan) acts alone. `full`: each cycle the Librarian
 * ranks the files that matter and the engine reads them for the Artisan, the Artisan acts, and the
 * Critic reviews a file change before anyone is asked to approve it.
 */
export const TIER_MODES = ["simple", "full"] as const;
export const TierMode = z.enum(TIER_MODES);
export type TierMode = z.infer<typeof TierMode>;

/** The helper roles of full mode; the Artisan is the tier's own model. */
export const ROLES = ["librarian", "critic", "chaos"] as const;
export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;

/**
 * A model for one role; absent: the tier's own model plays that role too. That roles and chaos need
 * `mode: full` is checked with the other cross-field rules in load.ts (so it is reported in one pass).
 */
export const RoleModel = z.strictObject({ provider: Provider, model: name });
export type RoleModel = z.infer<typeof RoleModel>;

export const Tier = z.strictObject({
  name,
  provider: Provider,
  model: name,
  mode: TierMode.default("simple"),
  roles: z
    .strictObject({
      librarian: RoleModel.optional(),
      critic: RoleModel.optional(),
      chaos: RoleModel.optional(),
    })
    .default({}),
  /** Full mode only: on entering the tier, the Chaos role writes one adversarial test first. */
  chaos: z.boolean().default(false),
  maxIterations: positiveInt,
  maxCostUsd: positiveUsd,
  maxTokens: positiveInt,
});
export type Tier = z.infer<typeof Tier>;

/** Caps for a whole run, shared by every tier and every intention in it. */
export const Budgets = z.strictObject({
  maxCostUsd: positiveUsd,
  maxTokens: positiveInt,
  maxIterations: positiveInt,
});
export type Budgets = z.infer<typeof Budgets>;

/** US dollars per one million tokens. Zero is allowed: local models cost nothing per token. */
export const ModelPrice = z.strictObject({
  inputPer1M: z.number().nonnegative(),
  outputPer1M: z.number().nonnegative(),
});
export type ModelPrice = z.infer<typeof ModelPrice>;

export const PriceTable = z.record(name, ModelPrice);
export type PriceTable = z.infer<typeof PriceTable>;

export const TierConfig = z.strictObject({
  escalation: EscalationPolicy,
  budgets: Budgets,
  tiers: z.array(Tier).min(1),
  prices: PriceTable,
});
export type TierConfig = z.infer<typeof TierConfig>;

/** What a tier written without `mode`, `roles` or `chaos` parses to. */
export const SIMPLE_TIER_DEFAULTS = { mode: "simple", roles: {}, chaos: false } as const satisfies Pick<
  Tier,
  "mode" | "roles" | "chaos"
>;
