import type { ModelCallRecord } from "./call-record";
import { costOf, UnknownPriceError } from "./tiers/cost";
import type { PriceTable } from "./tiers/schema";

/** The price of one model call in US dollars, or null when its model has no price in the table. */
export type Pricer = (
  call: Pick<ModelCallRecord, "modelId" | "offline" | "tokensIn" | "tokensOut">,
) => number | null;

/**
 * Prices are keyed by the provider's model name (`gpt-4o-mini`); call records carry our id
 * (`openai-compatible:gpt-4o-mini`). The built-in offline model costs nothing.
 */
export function createPricer(prices: PriceTable): Pricer {
  return (call) => {
    if (call.offline) return 0;
    const name = call.modelId.includes(":")
      ? call.modelId.slice(call.modelId.indexOf(":") + 1)
      : call.modelId;
    try {
      return costOf({ inputTokens: call.tokensIn, outputTokens: call.tokensOut }, name, prices);
    } catch (error) {
      if (error instanceof UnknownPriceError) return null;
      throw error;
    }
  };
}
