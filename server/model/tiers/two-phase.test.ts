import { describe, expect, it } from "vitest";
import { TWO_PHASE_DEFAULTS } from "@/server/domain/vocabulary/two-phase";
import { TierConfig } from "./schema";
import { providerAndModel, twoPhaseConfig } from "./two-phase";

const model = { id: "openai-compatible:qwen2.5-coder", offline: false };

describe("seed 002's two phases on the run's own model", () => {
  it("by default: simple for 5 iterations, then full, decomposition first", () => {
    const config = twoPhaseConfig(model);
    expect(TierConfig.parse(config)).toEqual(config);
    expect(config.escalation).toBe("decompose-then-escalate");
    expect(config.tiers.map((tier) => [tier.name, tier.mode, tier.maxIterations])).toEqual([
      ["simple", "simple", 5],
      ["full", "full", 5],
    ]);
    expect(config.tiers.every((tier) => tier.model === "qwen2.5-coder")).toBe(true);
  });

  it("always: full mode only; off: simple mode only", () => {
    const always = twoPhaseConfig(model, { ...TWO_PHASE_DEFAULTS, full: "always" });
    expect(always.tiers.map((tier) => tier.mode)).toEqual(["full"]);
    const off = twoPhaseConfig(model, { ...TWO_PHASE_DEFAULTS, full: "off", simpleIterations: 3 });
    expect(off.tiers.map((tier) => [tier.mode, tier.maxIterations])).toEqual([["simple", 3]]);
  });

  it("names the provider the way a tier does", () => {
    expect(providerAndModel({ id: "anthropic:claude", offline: false })).toEqual({
      provider: "anthropic",
      model: "claude",
    });
    expect(providerAndModel({ id: "offline-heuristics", offline: true })).toEqual({
      provider: "offline",
      model: "offline-heuristics",
    });
    expect(providerAndModel({ id: "something", offline: false }).provider).toBe("openai-compatible");
  });
});
