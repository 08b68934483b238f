import pg from "pg";

/** The instance holding a session's terminal and the address its peers reach it at. */
export interface TerminalOwner {
  instance: string;
  address: string;
}

/**
 * Which instance holds each session's terminal, when several instances share one PostgreSQL database.
 * A terminal is a process-local thing (a TTY exec on one Docker connection), so the instance that
 * opened it keeps it; the others relay to it (server/terminal/cluster.ts). The holder renews its rows
 * every `ttlMs / 3`; a row not renewed for `ttlMs` belongs to a dead instance and may be taken over.
 * A claim is one atomic conditional upsert, like a run lease (server/postgres/run-leases.ts).
 */
export class PgTerminalOwners {
  private readonly pool: pg.Pool;
  private readonly ttlMs: number;
  private readonly held = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private ready: Promise<void> | null = null;

  constructor(
    url: string,
    readonly self: TerminalOwner,
    options: { ttlMs?: number } = {},
  ) {
    this.pool = new pg.Pool({ connectionString: url, max: 2 });
    this.ttlMs = options.ttlMs ?? 15_000;
  }

  private setup(): Promise<void> {
    this.ready ??= (async () => {
      const client = await this.pool.connect();
      try {
        await client.query("SELECT pg_advisory_lock(7279011)");
        await client.query("CREATE SCHEMA IF NOT EXISTS arbor_queue");
        await client.query(`CREATE TABLE IF NOT EXISTS arbor_queue.terminal_owner (
          session_id TEXT PRIMARY KEY,
          instance TEXT NOT NULL,
          address TEXT NOT NULL,
          alive_until TIMESTAMPTZ NOT NULL
        )`);
      } finally {
        await client.query("SELECT pg_advisory_unlock(7279011)").catch(() => undefined);
        client.release();
      }
      this.timer = setInterval(() => void this.renew(), Math.max(50, Math.floor(this.ttlMs / 3)));
      this.timer.unref();
    })();
    return this.ready;
  }

  /** The live instance holding the session's terminal (possibly this one), or null. */
  async ownerOf(sessionId: string): Promise<TerminalOwner | null> {
    await this.setup();
    const { rows } = await this.pool.query<TerminalOwner>(
      "SELECT instance, address FROM arbor_queue.terminal_owner WHERE session_id = $1 AND alive_until >= now()",
      [sessionId],
    );
    return rows[0] ?? null;
  }

  /**
   * Makes this instance the session's terminal holder unless another live instance is: true when this
   * instance holds it now (it may open the terminal), false when the caller must relay to the holder.
   */
  async claim(sessionId: string): Promise<boolean> {
    await this.setup();
    const result = await this.pool.query(
      `INSERT INTO arbor_queue.terminal_owner AS o (session_id, instance, address, alive_until)
       VALUES ($1, $2, $3, now() + $4 * interval '1 millisecond')
       ON CONFLICT (session_id) DO UPDATE
         SET instance = EXCLUDED.instance, address = EXCLUDED.address, alive_until = EXCLUDED.alive_until
         WHERE o.instance = EXCLUDED.instance OR o.alive_until < now()`,
      [sessionId, this.self.instance, this.self.address, this.ttlMs],
    );
    if (result.rowCount !== 1) return false;
    this.held.add(sessionId);
    return true;
  }

  /** The session's terminal ended here: nobody holds it until the next open. */
  async release(sessionId: string): Promise<void> {
    this.held.delete(sessionId);
    await this.setup();
    await this.pool.query("DELETE FROM arbor_queue.terminal_owner WHERE session_id = $1 AND instance = $2", [
      sessionId,
      this.self.instance,
    ]);
  }

  private async renew(): Promise<void> {
    if (this.held.size === 0) return;
    await this.pool
      .query(
        `UPDATE arbor_queue.terminal_owner SET alive_until = now() + $3 * interval '1 millisecond'
         WHERE instance = $1 AND session_id = ANY($2)`,
        [this.self.instance, [...this.held], this.ttlMs],
      )
      .catch(() => undefined);
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await Promise.all([...this.held].map((id) => this.release(id).catch(() => undefined)));
    await this.pool.end();
  }
}
