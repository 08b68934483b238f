import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { costOf, UnknownPriceError } from "./cost";

const prices = {
  "gpt-4o-mini": { inputPer1M: 0.15, outputPer1M: 0.6 },
  "claude-sonnet-4-20250514": { inputPer1M: 3, outputPer1M: 15 },
  local: { inputPer1M: 0, outputPer1M: 0 },
};

describe("costOf", () => {
  it.each([
    [{ inputTokens: 1_000_000, outputTokens: 0 }, "gpt-4o-mini", 0.15],
    [{ inputTokens: 0, outputTokens: 1_000_000 }, "gpt-4o-mini", 0.6],
    [{ inputTokens: 10_000, outputTokens: 2_000 }, "claude-sonnet-4-20250514", 0.06],
    [{ inputTokens: 123_456, outputTokens: 7_890 }, "local", 0],
    [{ inputTokens: 0, outputTokens: 0 }, "gpt-4o-mini", 0],
  ])("%j on %s costs $%d", (usage, model, expected) => {
    expect(costOf(usage, model, prices)).toBeCloseTo(expected, 10);
  });

  it("refuses a model without a price, including inherited object keys", () => {
    expect(() => costOf({ inputTokens: 1, outputTokens: 1 }, "gpt-5", prices)).toThrow(UnknownPriceError);
    expect(() => costOf({ inputTokens: 1, outputTokens: 1 }, "toString", prices)).toThrow(UnknownPriceError);
  });

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY])("refuses token count %d", (count) => {
    expect(() => costOf({ inputTokens: count, outputTokens: 0 }, "local", prices)).toThrow(RangeError);
  });

  it("is additive: two calls cost what their summed usage costs", () => {
    const tokens = fc.nat({ max: 10_000_000 });
    fc.assert(
      fc.property(tokens, tokens, tokens, tokens, (a, b, c, d) => {
        const split =
          costOf({ inputTokens: a, outputTokens: b }, "claude-sonnet-4-20250514", prices) +
          costOf({ inputTokens: c, outputTokens: d }, "claude-sonnet-4-20250514", prices);
        const joint = costOf({ inputTokens: a + c, outputTokens: b + d }, "claude-sonnet-4-20250514", prices);
        expect(split).toBeCloseTo(joint, 8);
      }),
    );
  });
});
