import { describe, expect, it } from "vitest";
import { createPricer } from "./pricing";

const price = createPricer({ "gpt-4o-mini": { inputPer1M: 0.15, outputPer1M: 0.6 } });

describe("createPricer", () => {
  it("prices a call by the model name behind our provider prefix", () => {
    expect(
      price({
        modelId: "openai-compatible:gpt-4o-mini",
        offline: false,
        tokensIn: 1_000_000,
        tokensOut: 500_000,
      }),
    ).toBeCloseTo(0.45);
  });

  it("charges nothing for the offline model", () => {
    expect(price({ modelId: "offline-heuristics", offline: true, tokensIn: 10, tokensOut: 10 })).toBe(0);
  });

  it("says unknown (null) rather than zero for a model without a price", () => {
    expect(
      price({ modelId: "openai-compatible:mystery", offline: false, tokensIn: 10, tokensOut: 10 }),
    ).toBeNull();
  });
});
