import { describe, expect, it } from "vitest";
import { EscalationPolicy } from "@/server/domain/vocabulary/two-phase";
import { applyDecision, initialTierState, nextTier, recordIteration, type TierState } from "./next-tier";
import { SIMPLE_TIER_DEFAULTS, type TierConfig } from "./schema";

function config(escalation: EscalationPolicy): TierConfig {
  return {
    escalation,
    budgets: { maxCostUsd: 1, maxTokens: 100_000, maxIterations: 20 },
    tiers: [
      {
        name: "cheap",
        provider: "openai",
        model: "a",
        ...SIMPLE_TIER_DEFAULTS,
        maxIterations: 2,
        maxCostUsd: 0.1,
        maxTokens: 10_000,
      },
      {
        name: "strong",
        provider: "anthropic",
        model: "b",
        ...SIMPLE_TIER_DEFAULTS,
        maxIterations: 3,
        maxCostUsd: 0.5,
        maxTokens: 50_000,
      },
    ],
    prices: { a: { inputPer1M: 1, outputPer1M: 1 }, b: { inputPer1M: 1, outputPer1M: 1 } },
  };
}

const usage = (iterations: number, costUsd = 0, tokens = 0) => ({ iterations, costUsd, tokens });

function state(tierIndex: number, inTier: number, canDecompose: boolean): TierState {
  return { tierIndex, inTier: usage(inTier), total: usage(inTier), canDecompose };
}

type Kind = "stay" | "escalate" | "decompose" | "stop";

/** After a failed iteration: [tier, iterations used in it, can decompose] → decision per policy. */
const TABLE: [number, number, boolean, Record<EscalationPolicy, Kind>][] = [
  [
    0,
    1,
    true,
    {
      "escalate-then-decompose": "stay",
      "decompose-then-escalate": "stay",
      "escalate-only": "stay",
      "decompose-only": "stay",
    },
  ],
  [
    0,
    2,
    true,
    {
      "escalate-then-decompose": "escalate",
      "decompose-then-escalate": "decompose",
      "escalate-only": "escalate",
      "decompose-only": "decompose",
    },
  ],
  [
    0,
    2,
    false,
    {
      "escalate-then-decompose": "escalate",
      "decompose-then-escalate": "escalate",
      "escalate-only": "escalate",
      "decompose-only": "stop",
    },
  ],
  [
    1,
    3,
    true,
    {
      "escalate-then-decompose": "decompose",
      "decompose-then-escalate": "decompose",
      "escalate-only": "stop",
      "decompose-only": "decompose",
    },
  ],
  [
    1,
    3,
    false,
    {
      "escalate-then-decompose": "stop",
      "decompose-then-escalate": "stop",
      "escalate-only": "stop",
      "decompose-only": "stop",
    },
  ],
];

describe("nextTier", () => {
  describe.each(TABLE)(
    "tier %i after %i iterations, can decompose: %s",
    (tierIndex, used, canDecompose, expected) => {
      it.each(Object.entries(expected))("%s → %s", (policy, kind) => {
        const decision = nextTier(
          state(tierIndex, used, canDecompose),
          config(EscalationPolicy.parse(policy)),
        );
        expect(decision.kind).toBe(kind);
        if (decision.kind === "escalate")
          expect(decision).toMatchObject({ from: tierIndex, tierIndex: tierIndex + 1 });
      });
    },
  );

  it.each([
    ["cost", usage(0, 0.1, 0), /\$0\.1000 of \$0\.1 spent; escalating to strong/],
    ["tokens", usage(0, 0, 10_000), /10000 of 10000 tokens used/],
  ])("leaves a tier when its %s budget is spent", (_, inTier, reason) => {
    const decision = nextTier({ ...initialTierState(), inTier }, config("escalate-only"));
    expect(decision.kind).toBe("escalate");
    expect(decision.reason).toMatch(reason);
  });

  it.each([
    ["money", usage(1, 1, 0), /run budget exhausted: \$1\.0000 of \$1 spent/],
    ["tokens", usage(1, 0, 100_000), /100000 of 100000 tokens/],
    ["iterations", usage(20), /20 of 20 iterations/],
  ])("stops the run when its %s cap is reached, even with tier budget left", (_, total, reason) => {
    const decision = nextTier({ ...initialTierState(), total }, config("escalate-then-decompose"));
    expect(decision).toMatchObject({ kind: "stop" });
    expect(decision.reason).toMatch(reason);
  });

  it("stops on a tier index the config does not have", () => {
    expect(nextTier(state(5, 0, true), config("escalate-only")).reason).toMatch(
      /no tier 5 in a 2-tier config/,
    );
  });
});

describe("a failing intention, iteration by iteration", () => {
  it("walks cheap → strong → decompose under escalate-then-decompose", () => {
    const cfg = config("escalate-then-decompose");
    let current = initialTierState();
    const trail: string[] = [];
    for (let step = 0; step < 10; step++) {
      current = recordIteration(current, { costUsd: 0.01, tokens: 500 });
      const decision = nextTier(current, cfg);
      trail.push(decision.kind === "escalate" ? `escalate→${decision.tierIndex}` : decision.kind);
      current = applyDecision(current, decision);
      if (decision.kind === "decompose" || decision.kind === "stop") break;
    }
    expect(trail).toEqual(["stay", "escalate→1", "stay", "stay", "decompose"]);
    expect(current).toMatchObject({ tierIndex: 1, inTier: { iterations: 3 }, canDecompose: false });
    expect(current.total.iterations).toBe(5);
    expect(current.total.costUsd).toBeCloseTo(0.05);
  });

  it("keeps the run's totals when a child starts again at the cheap tier", () => {
    const child = initialTierState(usage(7, 0.3, 9000));
    expect(child).toMatchObject({
      tierIndex: 0,
      inTier: usage(0),
      total: usage(7, 0.3, 9000),
      canDecompose: true,
    });
  });
});
