import { z } from "zod";
import { eventBus } from "./bus";
import { listenOnChannel } from "./pg-listener";
import type { EventStore } from "./store";

const Notice = z.object({
  instance: z.string(),
  sessionId: z.string(),
  firstSeq: z.number().int().positive(),
  lastSeq: z.number().int().positive(),
});

/**
 * Live events across instances: listens on PostgreSQL's `arbor_events` channel (each append NOTIFYs
 * there in its transaction, see EventStore's `notifyAs`) and, for a session someone here follows,
 * reads the announced events from the table — the truth — and hands them to this instance's bus.
 * `followEvents` keeps its guarantee (no gap, no duplicate): it drops what it has seen and re-reads the
 * table when a delivery skips ahead. Own notifications are ignored (the local append published them).
 * The listening connection reconnects after a loss; a notification sent while it was down is not
 * replayed, so a follower then waits for the session's next event (whose gap triggers the re-read).
 */
export function listenForEvents(
  url: string,
  instance: string,
  store: EventStore,
  onProblem: (error: unknown) => void = () => undefined,
): { ready: Promise<void>; close: () => Promise<void> } {
  const deliver = async (payload: string | undefined) => {
    const parsed = Notice.safeParse(JSON.parse(payload ?? "null"));
    if (!parsed.success) return;
    const { instance: from, sessionId, firstSeq, lastSeq } = parsed.data;
    if (from === instance || !eventBus.following(sessionId)) return;
    eventBus.publish(sessionId, await store.read(sessionId, firstSeq - 1, lastSeq - firstSeq + 1));
  };
  const { ready, close } = listenOnChannel(url, "arbor_events", deliver, onProblem);
  return { ready, close };
}
