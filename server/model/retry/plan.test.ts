import { describe, expect, it } from "vitest";
import { ERROR_CLASSES } from "./classify";
import { MAX_RETRY_AFTER_MS, retryPlan } from "./plan";

/** Retries each class makes before giving up, and the waits between them (seed 004 §7). */
const SCHEDULE = {
  timeout: [1000, 2000, 4000],
  rate_limit: [5000, 10_000, 20_000, 40_000, 80_000],
  server_error: [1000, 2000],
  malformed_response: [0],
  permanent: [],
} as const;

describe("retryPlan", () => {
  describe.each(ERROR_CLASSES)("%s", (errorClass) => {
    const delays: readonly number[] = SCHEDULE[errorClass];

    it.each(delays.map((delay, index) => [index + 1, delay]))("retry %i waits %i ms", (attempt, delay) => {
      expect(retryPlan(errorClass, attempt)).toMatchObject({ retry: true, delayMs: delay });
    });

    it(`gives up after ${delays.length} retries`, () => {
      const plan = retryPlan(errorClass, delays.length + 1);
      expect(plan).toMatchObject({ retry: false, delayMs: 0, correction: false });
      expect(plan.reason).toMatch(delays.length === 0 ? /not retried/ : /used/);
    });
  });

  it("asks for a correction prompt only on a malformed answer", () => {
    expect(retryPlan("malformed_response", 1).correction).toBe(true);
    expect(retryPlan("timeout", 1).correction).toBe(false);
    expect(retryPlan("rate_limit", 1).correction).toBe(false);
  });

  it("honours Retry-After when it is longer than the schedule, never when shorter", () => {
    expect(retryPlan("rate_limit", 1, { retryAfterMs: 12_000 })).toMatchObject({
      retry: true,
      delayMs: 12_000,
    });
    expect(retryPlan("rate_limit", 1, { retryAfterMs: 12_000 }).reason).toMatch(/Retry-After/);
    expect(retryPlan("rate_limit", 3, { retryAfterMs: 12_000 })).toMatchObject({ delayMs: 20_000 });
    expect(retryPlan("server_error", 1, { retryAfterMs: 3000 })).toMatchObject({ delayMs: 3000 });
    expect(retryPlan("timeout", 1, { retryAfterMs: 9000 })).toMatchObject({ delayMs: 1000 });
  });

  it("gives up instead of waiting longer than the ceiling", () => {
    const plan = retryPlan("rate_limit", 1, { retryAfterMs: MAX_RETRY_AFTER_MS + 1 });
    expect(plan).toMatchObject({ retry: false });
    expect(plan.reason).toMatch(/asks to wait 301 s, more than 300 s/);
    expect(retryPlan("rate_limit", 1, { retryAfterMs: 61_000, maxRetryAfterMs: 60_000 }).retry).toBe(false);
    expect(retryPlan("rate_limit", 1, { retryAfterMs: MAX_RETRY_AFTER_MS }).retry).toBe(true);
  });

  it.each([0, -1, 1.5, Number.NaN])("refuses attempt number %d", (attempt) => {
    expect(retryPlan("timeout", attempt).retry).toBe(false);
  });
});
