export {
  type ClassifiedError,
  classifyHttpStatus,
  classifyModelError,
  ERROR_CLASSES,
  ErrorClass,
  parseRetryAfter,
} from "./classify";
export { MAX_RETRY_AFTER_MS, RETRY_RULES, type RetryPlan, type RetryRule, retryPlan } from "./plan";
export { type AttemptContext, type AttemptReport, type RetryOptions, sleep, withRetry } from "./with-retry";
