/**
 * Why a run's signal was aborted: a person pressed Stop. Carried as the AbortSignal's reason so the
 * sandbox, the cycle that was cut and the run's end can all name who stopped it. Its name is
 * "AbortError", so code that tells a cancellation from a failure keeps treating it as one.
 */
export class RunStopped extends Error {
  constructor(readonly by: string) {
    super(`stopped by ${by}`);
    this.name = "AbortError";
  }
}

/**
 * Why a step's signal was aborted: the run's working time ran out while the step was waiting on the
 * model (a request that never answers, a 429 backoff). Also named "AbortError": the step gives up
 * quietly like a stopped one, and the loop then ends the run FAILED with the wall-clock limit named.
 */
export class WallClockReached extends Error {
  constructor(readonly limitMs: number) {
    super(`limit reached: wall clock (${limitMs / 1000} s of working time)`);
    this.name = "AbortError";
  }
}

/** Who stopped the run behind `signal`; "the user" when the stop did not say (e.g. an older caller). */
export function stoppedBy(signal: AbortSignal): string {
  if (signal.reason instanceof WallClockReached) return "the wall-clock limit";
  return signal.reason instanceof RunStopped ? signal.reason.by : "the user";
}

/**
 * The run's signal, also aborted (with `WallClockReached`) when the run's remaining working time is
 * over. Model calls, their retries and backoff sleeps all take this signal, so none of them outlives
 * the wall clock. `dispose` clears the timer once the step is done.
 */
export function withDeadline(
  signal: AbortSignal,
  remainingMs: number,
  limitMs: number,
): { signal: AbortSignal; dispose: () => void } {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new WallClockReached(limitMs)), Math.max(0, remainingMs));
  return { signal: AbortSignal.any([signal, deadline.signal]), dispose: () => clearTimeout(timer) };
}
