import type { ErrorClass } from "./classify";

/**
 * Seed 004's retry table, as data. `attempt` is the number of failures of this class so far (1 after
 * the first one), so `retryPlan(c, n)` answers "may we make retry number n, and after how long?".
 */

export interface RetryRule {
  maxRetries: number;
  /** Delay before retry number n (1-based). */
  delayMs: (n: number) => number;
  /** Whether the retry must carry a correction prompt instead of repeating the same request. */
  correction: boolean;
  /** Whether a server-supplied Retry-After may lengthen the wait. */
  honoursRetryAfter: boolean;
}

export const RETRY_RULES: Record<ErrorClass, RetryRule> = {
  // 1 s, 2 s, 4 s.
  timeout: {
    maxRetries: 3,
    delayMs: (n) => 1000 * 2 ** (n - 1),
    correction: false,
    honoursRetryAfter: false,
  },
  // 5 s, 10 s, 20 s, 40 s, 80 s.
  rate_limit: {
    maxRetries: 5,
    delayMs: (n) => 5000 * 2 ** (n - 1),
    correction: false,
    honoursRetryAfter: true,
  },
  // Seed 004's "transient" row: 2 retries, linear 1 s, 2 s. A 503 may also say how long to wait.
  server_error: { maxRetries: 2, delayMs: (n) => 1000 * n, correction: false, honoursRetryAfter: true },
  // The model answered, just not usably: ask again at once, once, telling it what was wrong.
  malformed_response: { maxRetries: 1, delayMs: () => 0, correction: true, honoursRetryAfter: false },
  permanent: { maxRetries: 0, delayMs: () => 0, correction: false, honoursRetryAfter: false },
};

/** Longer than a run's default wall clock (300 s): waiting that long is failing slowly. */
export const MAX_RETRY_AFTER_MS = 300_000;

export interface RetryPlan {
  retry: boolean;
  delayMs: number;
  correction: boolean;
  /** One line for the log and the run's event stream. */
  reason: string;
}

export interface RetryPlanOptions {
  retryAfterMs?: number;
  maxRetryAfterMs?: number;
}

export function retryPlan(
  errorClass: ErrorClass,
  attempt: number,
  options: RetryPlanOptions = {},
): RetryPlan {
  const rule = RETRY_RULES[errorClass];
  const stop = (reason: string): RetryPlan => ({ retry: false, delayMs: 0, correction: false, reason });
  if (!Number.isInteger(attempt) || attempt < 1) return stop(`invalid attempt number ${attempt}`);
  if (rule.maxRetries === 0) return stop(`${errorClass}: not retried`);
  if (attempt > rule.maxRetries) {
    return stop(`${errorClass}: all ${rule.maxRetries} ${rule.maxRetries === 1 ? "retry" : "retries"} used`);
  }
  const scheduled = rule.delayMs(attempt);
  const asked = rule.honoursRetryAfter ? options.retryAfterMs : undefined;
  const ceiling = options.maxRetryAfterMs ?? MAX_RETRY_AFTER_MS;
  if (asked !== undefined && asked > ceiling) {
    return stop(
      `${errorClass}: server asks to wait ${Math.ceil(asked / 1000)} s, more than ${ceiling / 1000} s`,
    );
  }
  const delayMs = asked !== undefined && asked > scheduled ? asked : scheduled;
  const via = delayMs === scheduled ? "" : " (Retry-After)";
  return {
    retry: true,
    delayMs,
    correction: rule.correction,
    reason: `${errorClass}: retry ${attempt}/${rule.maxRetries} after ${delayMs} ms${via}`,
  };
}
