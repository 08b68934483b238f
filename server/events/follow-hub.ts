/** A live, per-session, in-memory hub: what it holds now, then each update as it comes. */
export interface SessionHub<T> {
  subscribe(sessionId: string, listener: (item: T) => void): () => void;
  snapshot(sessionId: string): Iterable<T>;
}

/**
 * Follows one session of a hub until `signal` aborts: first its snapshot, then every update in order.
 * Shared by the live answer stream and the live command output, which are ephemeral (never events).
 */
export async function* followHub<T>(
  hub: SessionHub<T>,
  sessionId: string,
  signal: AbortSignal,
): AsyncGenerator<T> {
  const queue: T[] = [];
  let wake: (() => void) | null = null;
  const unsubscribe = hub.subscribe(sessionId, (item) => {
    queue.push(item);
    wake?.();
    wake = null;
  });
  const onAbort = () => {
    wake?.();
    wake = null;
  };
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    yield* hub.snapshot(sessionId);
    while (!signal.aborted) {
      const next = queue.shift();
      if (next) {
        yield next;
        continue;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  } finally {
    unsubscribe();
    signal.removeEventListener("abort", onAbort);
  }
}
