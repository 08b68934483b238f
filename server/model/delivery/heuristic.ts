import type { DeliveryAnswer, DeliveryCheckInput } from "./types";

/** Offline (and the fallback when the model fails): delivered iff the root's verification passed. */
export function deliveryHeuristic(input: Pick<DeliveryCheckInput, "rootStatus">): DeliveryAnswer {
  return input.rootStatus === "VERIFIED"
    ? { state: "DONE", reason: "The request's root intention is verified.", missing: [] }
    : {
        state: "NEEDS_WORK",
        reason: "The request's root intention did not verify.",
        missing: ["a verified result for the request"],
      };
}
