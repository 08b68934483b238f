export { costOf, type TokenUsage, UnknownPriceError } from "./cost";
export {
  formatIssues,
  loadTierConfig,
  parseTierConfig,
  TierConfigError,
  type TierConfigIssue,
  type TierConfigResult,
  validateTierConfig,
} from "./load";
export {
  applyDecision,
  initialTierState,
  nextTier,
  recordIteration,
  type TierDecision,
  type TierState,
  tierDecision,
  type Usage,
} from "./next-tier";
export * from "./schema";
export * from "./two-phase";
