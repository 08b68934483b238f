import { EventBody, type EventInput, type StoredEvent } from "@/server/domain/events/schema";

/**
 * The append-only log as the engine sees it. `EventStore` (SQLite/Prisma) is the product's; tests of
 * the pure engine use `MemoryEventLog`. Both number events 1, 2, 3… per session with no gap.
 */
export interface EventLog {
  /**
   * `expectLastSeq`: append only if the session's last event is still that one, else throw
   * `StaleLogError` and append nothing (a decision made on a view of the log that is no longer current,
   * e.g. two people accepting the same node at once, re-reads and decides again).
   */
  append(
    sessionId: string,
    bodies: readonly EventInput[],
    options?: { expectLastSeq?: number },
  ): Promise<StoredEvent[]>;
  read(sessionId: string, afterSeq?: number, limit?: number): Promise<StoredEvent[]>;
}

/** The log moved on since the caller read it (see `expectLastSeq`): nothing was appended. */
export class StaleLogError extends Error {
  constructor(
    readonly sessionId: string,
    readonly expected: number,
    readonly actual: number,
  ) {
    super(`the session's log is at event ${actual}, not ${expected}: read it again`);
    this.name = "StaleLogError";
  }
}

export class MemoryEventLog implements EventLog {
  private readonly sessions = new Map<string, StoredEvent[]>();

  constructor(private readonly clock: () => number = Date.now) {}

  async append(
    sessionId: string,
    bodies: readonly EventInput[],
    options: { expectLastSeq?: number } = {},
  ): Promise<StoredEvent[]> {
    const events = this.sessions.get(sessionId) ?? [];
    if (options.expectLastSeq !== undefined && options.expectLastSeq !== events.length)
      throw new StaleLogError(sessionId, options.expectLastSeq, events.length);
    const at = new Date(this.clock()).toISOString();
    const stored = bodies.map((body, index) => ({
      seq: events.length + index + 1,
      at,
      // Parsed like the SQLite store does, so defaults and validation are the same in tests.
      body: EventBody.parse(body),
    }));
    events.push(...stored);
    this.sessions.set(sessionId, events);
    return stored.map((event) => structuredClone(event));
  }

  async read(sessionId: string, afterSeq = 0, limit = 5_000): Promise<StoredEvent[]> {
    const events = this.sessions.get(sessionId) ?? [];
    return events
      .filter((event) => event.seq > afterSeq)
      .slice(0, limit)
      .map((event) => structuredClone(event));
  }
}
