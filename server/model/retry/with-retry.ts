import type { ClassifiedError } from "./classify";
import { type RetryPlan, retryPlan } from "./plan";

/**
 * Runs a model call under seed 004's retry policy. Waiting goes through an injected `sleep`, so tests
 * run instantly and the orchestrator can use a clock that a stopped run interrupts. When retries are
 * exhausted (or the class is never retried) the last error is rethrown unchanged: callers already
 * turn the typed model errors into explained run failures.
 */

export interface AttemptContext {
  /** 1 for the first call, 2 for the first retry, … */
  attempt: number;
  /** Set when this call must carry a correction prompt about the previous, malformed answer. */
  correctionFor?: ClassifiedError;
}

export interface AttemptReport {
  attempt: number;
  error: ClassifiedError;
  /** Failures of this class so far, counting ones spent before the error reached us. */
  classAttempt: number;
  plan: RetryPlan;
}

export interface RetryOptions {
  classify: (error: unknown) => ClassifiedError;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Every failure, with the decision taken about it; for logs and run events. */
  onAttempt?: (report: AttemptReport) => void;
  /**
   * The run's signal, aborted when the run is stopped or its wall clock runs out: it cuts a backoff
   * sleep short and no retry starts after it.
   */
  signal?: AbortSignal;
  maxRetryAfterMs?: number;
  /**
   * Attempts in all, whatever the class's rule allows. 1 for advisory calls made after the run's
   * outcome is decided (the delivery check): a retry there could only spend time and money.
   */
  maxAttempts?: number;
}

export async function withRetry<T>(
  fn: (context: AttemptContext) => Promise<T>,
  options: RetryOptions,
): Promise<T> {
  // Counted per class, as the seed's table is: a timeout after two rate limits is still the first timeout.
  const failures = new Map<string, number>();
  let context: AttemptContext = { attempt: 1 };
  for (;;) {
    try {
      return await fn(context);
    } catch (error) {
      // A stopped run is not a failure to retry, whatever the error looks like.
      if (options.signal?.aborted) throw error;
      const classified = options.classify(error);
      const previous = failures.get(classified.errorClass) ?? classified.retriesSpent ?? 0;
      const classAttempt = previous + 1;
      failures.set(classified.errorClass, classAttempt);
      const planned = retryPlan(classified.errorClass, classAttempt, {
        retryAfterMs: classified.retryAfterMs,
        maxRetryAfterMs: options.maxRetryAfterMs,
      });
      const plan =
        planned.retry && context.attempt >= (options.maxAttempts ?? Number.POSITIVE_INFINITY)
          ? {
              retry: false,
              delayMs: 0,
              correction: false,
              reason: `${classified.errorClass}: not retried (${options.maxAttempts} attempt${options.maxAttempts === 1 ? "" : "s"} allowed)`,
            }
          : planned;
      options.onAttempt?.({ attempt: context.attempt, error: classified, classAttempt, plan });
      if (!plan.retry) throw error;
      await options.sleep(plan.delayMs, options.signal);
      context = {
        attempt: context.attempt + 1,
        ...(plan.correction ? { correctionFor: classified } : {}),
      };
    }
  }
}

/** The real sleep for production wiring: resolves after `ms`, rejects at once when the run is stopped. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
