import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import pg from "pg";

/** A name for this process among the instances sharing the database (host, pid, a random tail). */
export function instanceName(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
}

/**
 * Which instance drives which run, when several Arbor instances share one PostgreSQL database. A run
 * is driven only by the instance holding its lease; the holder renews every lease it holds every
 * `ttlMs / 3`, and a lease not renewed for `ttlMs` (its instance died or lost the database) may be
 * taken by any other instance, which then resumes the run from its events.
 *
 * The work itself is durable already: a run is due while the event log says it is RUNNING (the `Run`
 * projection), so this table only has to grant exclusivity. A claim is one atomic upsert (the row's
 * lock serialises racing instances; no read-then-write window). pg-boss 10 (the last line that runs on
 * Node 20) has no job heartbeat — a job's expiry is fixed when it is fetched — so a run waiting hours
 * for a person would either expire while alive or stay stuck for hours after its instance died; the
 * job heartbeat of pg-boss's current docs is in releases that need Node >= 22, as does graphile-worker 0.18.
 *
 * Fail-stop: an instance that cannot confirm a lease within `lostAfter` (60% of the TTL, measured from
 * the start of the last renewal that succeeded, so before any other instance may claim it) calls
 * `onLost`, whose default ends the process — exactly the crash the resume logic already recovers from,
 * and never two drivers at once.
 */
export class PgRunLeases {
  readonly owner: string;
  private readonly pool: pg.Pool;
  private readonly ttlMs: number;
  /** Each held run and when (local clock) the last renewal that confirmed it was sent. */
  private readonly held = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private ready: Promise<void> | null = null;
  private readonly onLost: (runIds: string[]) => void;
  private stopHandler: ((runId: string, by: string) => void) | null = null;
  /** Stop requests already handed to the handler (a request stays in the row until the lease ends). */
  private readonly stopsSeen = new Set<string>();

  constructor(
    url: string,
    options: { ttlMs?: number; owner?: string; onLost?: (runIds: string[]) => void } = {},
  ) {
    this.pool = new pg.Pool({ connectionString: url, max: 3 });
    this.ttlMs = options.ttlMs ?? 15_000;
    this.owner = options.owner ?? instanceName();
    this.onLost =
      options.onLost ??
      ((runIds) => {
        console.error(`Arbor instance ${this.owner} lost the lease of runs ${runIds.join(", ")}: exiting.`);
        process.exit(75);
      });
  }

  /** The lease table, created once (like a queue library's own schema); safe when instances race. */
  private setup(): Promise<void> {
    this.ready ??= (async () => {
      const client = await this.pool.connect();
      try {
        await client.query("SELECT pg_advisory_lock(7279010)");
        await client.query("CREATE SCHEMA IF NOT EXISTS arbor_queue");
        await client.query(`CREATE TABLE IF NOT EXISTS arbor_queue.run_lease (
          run_id TEXT PRIMARY KEY,
          session_id TEXT NOT NULL,
          owner TEXT,
          lease_until TIMESTAMPTZ,
          claims INTEGER NOT NULL DEFAULT 0,
          stop_by TEXT,
          updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
        )`);
      } finally {
        await client.query("SELECT pg_advisory_unlock(7279010)").catch(() => undefined);
        client.release();
      }
      this.timer = setInterval(() => void this.renew(), this.renewEveryMs());
      this.timer.unref();
    })();
    return this.ready;
  }

  /**
   * Takes the run's lease when no live instance holds it (or this one does). True: this instance now
   * drives the run until `release`; false: another instance does.
   */
  async acquire(runId: string, sessionId: string): Promise<boolean> {
    await this.setup();
    const sentAt = Date.now();
    const result = await this.pool.query(
      `INSERT INTO arbor_queue.run_lease AS l (run_id, session_id, owner, lease_until, claims)
       VALUES ($1, $2, $3, now() + $4 * interval '1 millisecond', 1)
       ON CONFLICT (run_id) DO UPDATE
         SET owner = EXCLUDED.owner, lease_until = EXCLUDED.lease_until, claims = l.claims + 1, updated_at = now()
         WHERE l.owner IS NULL OR l.owner = EXCLUDED.owner OR l.lease_until < now()`,
      [runId, sessionId, this.owner, this.ttlMs],
    );
    if (result.rowCount !== 1) return false;
    this.held.set(runId, sentAt);
    return true;
  }

  /**
   * Asks the instance holding the run's lease to stop it (a person pressed Stop on another instance).
   * The holder sees the request at its next renewal. False when no live instance holds the lease.
   */
  async requestStop(runId: string, by: string): Promise<boolean> {
    await this.setup();
    const result = await this.pool.query(
      `UPDATE arbor_queue.run_lease SET stop_by = $2, updated_at = now()
       WHERE run_id = $1 AND owner IS NOT NULL AND lease_until >= now()`,
      [runId, by],
    );
    return result.rowCount === 1;
  }

  /** Who handles a stop requested on another instance for a run held here. */
  onStopRequested(handler: (runId: string, by: string) => void): void {
    this.stopHandler = handler;
  }

  /** Gives the lease back (the run ended here, or this instance is done with it). */
  async release(runId: string): Promise<void> {
    this.held.delete(runId);
    this.stopsSeen.delete(runId);
    await this.pool.query(
      "UPDATE arbor_queue.run_lease SET owner = NULL, lease_until = NULL, stop_by = NULL, updated_at = now() WHERE run_id = $1 AND owner = $2",
      [runId, this.owner],
    );
  }

  /** How often held leases are renewed (and stop requests for them seen). */
  renewEveryMs(): number {
    return Math.max(50, Math.floor(this.ttlMs / 3));
  }

  /** The heartbeat: renews every held lease; a lease that could not be confirmed in time is lost. */
  private async renew(): Promise<void> {
    const runIds = [...this.held.keys()];
    if (runIds.length > 0) {
      const sentAt = Date.now();
      try {
        const { rows } = await this.pool.query<{ run_id: string; stop_by: string | null }>(
          `UPDATE arbor_queue.run_lease SET lease_until = now() + $3 * interval '1 millisecond', updated_at = now()
           WHERE owner = $1 AND run_id = ANY($2) RETURNING run_id, stop_by`,
          [this.owner, runIds, this.ttlMs],
        );
        for (const row of rows)
          if (row.stop_by !== null && !this.stopsSeen.has(row.run_id)) {
            this.stopsSeen.add(row.run_id);
            this.stopHandler?.(row.run_id, row.stop_by);
          }
        const renewed = new Set(rows.map((row) => row.run_id));
        // Not renewed although the query ran: another instance holds it now. Lost at once.
        for (const id of runIds) if (this.held.has(id)) this.held.set(id, renewed.has(id) ? sentAt : 0);
      } catch {
        // The database is unreachable: the leases lapse below unless a later renewal succeeds.
      }
    }
    const lostAfter = this.ttlMs * 0.6;
    const lost = [...this.held]
      .filter(([, confirmed]) => Date.now() - confirmed > lostAfter)
      .map(([id]) => id);
    if (lost.length > 0) {
      for (const id of lost) this.held.delete(id);
      this.onLost(lost);
    }
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await Promise.all([...this.held.keys()].map((id) => this.release(id).catch(() => undefined)));
    await this.pool.end();
  }
}
