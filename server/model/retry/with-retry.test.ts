import { describe, expect, it, vi } from "vitest";
import type { ClassifiedError, ErrorClass } from "./classify";
import { type AttemptContext, type AttemptReport, sleep, withRetry } from "./with-retry";

class Fake extends Error {
  constructor(
    readonly errorClass: ErrorClass,
    readonly retryAfterMs?: number,
  ) {
    super(errorClass);
  }
}

const classify = (error: unknown): ClassifiedError =>
  error instanceof Fake
    ? { errorClass: error.errorClass, retryAfterMs: error.retryAfterMs, message: error.message }
    : { errorClass: "permanent", message: String(error) };

/** A call that fails with the given errors in order, then answers "ok". */
function script(...errors: Fake[]) {
  const contexts: AttemptContext[] = [];
  const fn = async (context: AttemptContext) => {
    contexts.push(context);
    const next = errors.shift();
    if (next) throw next;
    return "ok";
  };
  return { fn, contexts };
}

function harness() {
  const waits: number[] = [];
  const reports: AttemptReport[] = [];
  return {
    waits,
    reports,
    options: {
      classify,
      sleep: async (ms: number) => {
        waits.push(ms);
      },
      onAttempt: (report: AttemptReport) => reports.push(report),
    },
  };
}

describe("withRetry", () => {
  it("returns the first success without waiting", async () => {
    const { waits, options } = harness();
    await expect(withRetry(script().fn, options)).resolves.toBe("ok");
    expect(waits).toEqual([]);
  });

  it.each([
    ["timeout", [1000, 2000, 4000]],
    ["rate_limit", [5000, 10_000, 20_000, 40_000, 80_000]],
    ["server_error", [1000, 2000]],
    ["malformed_response", [0]],
    ["permanent", []],
  ] as const)("%s: waits %j, then rethrows the last error unchanged", async (errorClass, expected) => {
    const { waits, reports, options } = harness();
    const errors = Array.from({ length: expected.length + 1 }, () => new Fake(errorClass));
    const last = errors.at(-1);
    const { fn, contexts } = script(...errors);
    await expect(withRetry(fn, options)).rejects.toBe(last);
    expect(waits).toEqual([...expected]);
    expect(contexts.map((context) => context.attempt)).toEqual(errors.map((_, index) => index + 1));
    expect(reports.map((report) => report.plan.retry)).toEqual([...expected.map(() => true), false]);
  });

  it("recovers when a retry succeeds", async () => {
    const { waits, options } = harness();
    const { fn } = script(new Fake("timeout"), new Fake("timeout"));
    await expect(withRetry(fn, options)).resolves.toBe("ok");
    expect(waits).toEqual([1000, 2000]);
  });

  it("counts each class on its own", async () => {
    const { waits, options } = harness();
    const { fn } = script(
      new Fake("rate_limit"),
      new Fake("timeout"),
      new Fake("rate_limit"),
      new Fake("timeout"),
    );
    await expect(withRetry(fn, options)).resolves.toBe("ok");
    expect(waits).toEqual([5000, 1000, 10_000, 2000]);
  });

  it("waits as long as Retry-After asks when that is longer", async () => {
    const { waits, options } = harness();
    const { fn } = script(new Fake("rate_limit", 30_000), new Fake("rate_limit", 1000));
    await withRetry(fn, options);
    expect(waits).toEqual([30_000, 10_000]);
  });

  it("hands the malformed error to the retry so it can send a correction prompt", async () => {
    const { options } = harness();
    const { fn, contexts } = script(new Fake("malformed_response"));
    await withRetry(fn, options);
    expect(contexts).toEqual([
      { attempt: 1 },
      { attempt: 2, correctionFor: classify(new Fake("malformed_response")) },
    ]);
  });

  it("does not retry a malformed answer whose correction was already spent", async () => {
    const { waits, options } = harness();
    const spent = { ...options, classify: (e: unknown) => ({ ...classify(e), retriesSpent: 1 }) };
    await expect(withRetry(script(new Fake("malformed_response")).fn, spent)).rejects.toBeInstanceOf(Fake);
    expect(waits).toEqual([]);
  });

  it("never retries once the run is stopped", async () => {
    const controller = new AbortController();
    const { waits, options } = harness();
    const fn = async () => {
      controller.abort();
      throw new Fake("timeout");
    };
    await expect(withRetry(fn, { ...options, signal: controller.signal })).rejects.toBeInstanceOf(Fake);
    expect(waits).toEqual([]);
  });
});

describe("sleep", () => {
  it("resolves after the delay on fake timers", async () => {
    vi.useFakeTimers();
    try {
      const done = vi.fn();
      const pending = sleep(1000).then(done);
      await vi.advanceTimersByTimeAsync(999);
      expect(done).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      await pending;
      expect(done).toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });

  it("rejects at once when aborted, before or during the wait", async () => {
    const before = new AbortController();
    before.abort(new Error("stopped"));
    await expect(sleep(10_000, before.signal)).rejects.toThrow("stopped");
    const during = new AbortController();
    const pending = sleep(10_000, during.signal);
    during.abort(new Error("stopped later"));
    await expect(pending).rejects.toThrow("stopped later");
  });
});

describe("withRetry: limits the caller sets", () => {
  it("maxAttempts 1: an advisory call is not retried, and the report says so", async () => {
    const h = harness();
    const { fn, contexts } = script(new Fake("rate_limit"));
    await expect(withRetry(fn, { ...h.options, maxAttempts: 1 })).rejects.toThrow("rate_limit");
    expect(contexts).toHaveLength(1);
    expect(h.waits).toEqual([]);
    expect(h.reports[0]?.plan).toMatchObject({
      retry: false,
      reason: "rate_limit: not retried (1 attempt allowed)",
    });
  });

  it("an aborted signal (run stopped or wall clock reached) cuts the backoff and starts no retry", async () => {
    const controller = new AbortController();
    const { fn, contexts } = script(new Fake("rate_limit"), new Fake("rate_limit"));
    const waiting = withRetry(fn, { classify, sleep, signal: controller.signal });
    setTimeout(() => controller.abort(new Error("wall clock")), 20);
    const started = Date.now();
    await expect(waiting).rejects.toThrow("wall clock");
    // The backoff is 5 s: well under it proves the cut, with room for a loaded 2-core CI machine.
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(contexts).toHaveLength(1);
  });
});
