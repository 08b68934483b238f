export {
  type BuildContextInput,
  type BuiltContext,
  buildContext,
  CONTEXT_LIMITS,
  type ContextLimits,
  type CriterionView,
  type FinishedSubtree,
  type IntentionView,
} from "./build-context";
export {
  COMPRESSION_THRESHOLDS,
  type CompressedHistory,
  type CompressionThresholds,
  compressHistory,
  compressionTriggers,
  estimateMessagesTokens,
  type HistoryMessage,
} from "./compression";
export {
  type AttemptView,
  FAILURE_SUMMARY_LIMITS,
  type FailureSummary,
  summarizeFailures,
} from "./failure-summary";
export { type CompressionRecord, type CompressionTrigger, type DroppedItem, droppedItem } from "./record";
export { estimateTokens, sha256Of } from "./text";
