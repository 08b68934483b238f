import type { StoredEvent } from "@/server/domain/events/schema";
import { eventBus } from "./bus";
import type { EventStore } from "./store";

/**
 * Yields every event of a session after `afterSeq`, first from the table, then live, with no gap
 * and no duplicate. The bus subscription is opened before the backlog is read, so an event appended
 * in between is seen once: either in the backlog or from the bus, never both (seq filter), never
 * neither. A bus delivery that skips ahead triggers a re-read from the table.
 */
export async function* followEvents(
  store: EventStore,
  sessionId: string,
  afterSeq: number,
  signal: AbortSignal,
): AsyncGenerator<StoredEvent> {
  let last = afterSeq;
  let pending: StoredEvent[] = [];
  let wake: (() => void) | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  const unsubscribe = eventBus.subscribe(sessionId, (events) => {
    pending.push(...events);
    notify();
  });
  signal.addEventListener("abort", notify, { once: true });
  try {
    while (!signal.aborted) {
      const backlog = await store.read(sessionId, last);
      for (const event of backlog) {
        last = event.seq;
        yield event;
      }
      if (backlog.length > 0) continue;
      while (!signal.aborted) {
        const live = pending.filter((event) => event.seq > last);
        pending = [];
        if (live.length === 0) {
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
          continue;
        }
        if ((live[0]?.seq ?? 0) !== last + 1) break; // gap: fall back to the table
        for (const event of live) {
          last = event.seq;
          yield event;
        }
      }
    }
  } finally {
    unsubscribe();
    signal.removeEventListener("abort", notify);
  }
}
