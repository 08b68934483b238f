import type { PriceTable } from "./schema";

/** Token counts of one model call, as the provider reported them (or as we estimated them). */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

/** Thrown rather than returning 0: a call we cannot price would slip past the money budget. */
export class UnknownPriceError extends Error {
  constructor(readonly model: string) {
    super(`No price for model "${model}"; add it to the tier config's prices`);
    this.name = "UnknownPriceError";
  }
}

export function costOf(usage: TokenUsage, model: string, prices: PriceTable): number {
  const price = Object.hasOwn(prices, model) ? prices[model] : undefined;
  if (!price) throw new UnknownPriceError(model);
  for (const [label, count] of [
    ["inputTokens", usage.inputTokens],
    ["outputTokens", usage.outputTokens],
  ] as const) {
    if (!Number.isFinite(count) || count < 0)
      throw new RangeError(`${label} must be a non-negative number, got ${count}`);
  }
  return (usage.inputTokens * price.inputPer1M + usage.outputTokens * price.outputPer1M) / 1_000_000;
}
