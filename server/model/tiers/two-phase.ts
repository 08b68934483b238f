import { TWO_PHASE_DEFAULTS, type TwoPhaseOptions } from "@/server/domain/vocabulary/two-phase";
import type { AgentModel } from "../types";
import { PROVIDERS, type Provider, SIMPLE_TIER_DEFAULTS, type TierConfig } from "./schema";

export { TWO_PHASE_DEFAULTS, type TwoPhaseOptions } from "@/server/domain/vocabulary/two-phase";

/**
 * Seed 002's two-phase default for a run without a tier file: the run's model works alone (simple
 * mode) and, when that is not enough, the same model works in full mode (Librarian → Artisan →
 * Critic). How that combines with seed 000's decomposition is the `escalation` policy; the default,
 * decompose-then-escalate, keeps Arbor's rule first — an intention that keeps failing is split — and
 * spends full mode's extra calls only on an intention that cannot be split (the depth limit, or the
 * model says it is atomic). `full: "always"` skips simple mode (seed 002's `--full`), `"off"` never
 * leaves it (`--no-escalate`).
 */

/** No cap of its own: the run's budget and limits still apply (the loop enforces them). */
const UNCAPPED = { maxCostUsd: Number.MAX_SAFE_INTEGER, maxTokens: Number.MAX_SAFE_INTEGER };

/** `openai-compatible:qwen2.5` → provider and model name, as a tier names them. */
export function providerAndModel(model: Pick<AgentModel, "id" | "offline">): {
  provider: Provider;
  model: string;
} {
  if (model.offline) return { provider: "offline", model: model.id };
  const colon = model.id.indexOf(":");
  const provider = model.id.slice(0, colon) as Provider;
  if (colon > 0 && PROVIDERS.includes(provider)) return { provider, model: model.id.slice(colon + 1) };
  return { provider: "openai-compatible", model: model.id };
}

export function twoPhaseConfig(
  model: Pick<AgentModel, "id" | "offline">,
  options: TwoPhaseOptions = TWO_PHASE_DEFAULTS,
): TierConfig {
  const served = providerAndModel(model);
  const simple = {
    name: "simple",
    ...served,
    ...SIMPLE_TIER_DEFAULTS,
    maxIterations: options.simpleIterations,
    ...UNCAPPED,
  };
  const full = {
    ...simple,
    name: "full",
    mode: "full" as const,
    maxIterations: options.fullIterations,
  };
  const tiers = { escalate: [simple, full], always: [full], off: [simple] }[options.full];
  return {
    escalation: options.escalation,
    budgets: { ...UNCAPPED, maxIterations: Number.MAX_SAFE_INTEGER },
    tiers,
    prices: {},
  };
}
