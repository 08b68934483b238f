import { UserFacingError } from "@/server/domain/errors";
import type { SessionView } from "@/server/domain/session/view";

/**
 * The orchestrator's side of several instances on one database (implemented on PostgreSQL by
 * server/postgres/run-leases.ts; absent on SQLite, where one process drives every run).
 */
export interface RunLeases {
  /** True: this instance now holds the run's lease and drives it; false: another live instance does. */
  acquire(runId: string, sessionId: string): Promise<boolean>;
  release(runId: string): Promise<void>;
  /** Asks the live instance holding the run's lease to stop it; false when none holds it. */
  requestStop(runId: string, by: string): Promise<boolean>;
  /** Stops asked for on other instances, for runs driven here. */
  onStopRequested(handler: (runId: string, by: string) => void): void;
  /** How often the holder renews its leases, i.e. how soon it sees a stop asked for elsewhere. */
  renewEveryMs(): number;
}

/** In a cluster, how often a run waiting for a person looks for an answer given on another instance. */
export const ANSWER_POLL_MS = 1_000;

/** Resolves once the instance driving the run recorded its stop (a few renewals at most). */
export async function stoppedElsewhere(
  view: () => Promise<SessionView>,
  runId: string,
  leases: RunLeases,
): Promise<void> {
  const deadline = Date.now() + leases.renewEveryMs() * 6 + 5_000;
  while (Date.now() < deadline) {
    if ((await view()).runs[runId]?.status !== "RUNNING") return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new UserFacingError("The instance driving this run has not stopped it yet: try again.", "CONFLICT");
}
