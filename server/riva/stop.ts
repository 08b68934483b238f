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

/** Who stopped the run behind `signal`; "the user" when the stop did not say (e.g. an older caller). */
export function stoppedBy(signal: AbortSignal): string {
  return signal.reason instanceof RunStopped ? signal.reason.by : "the user";
}
