import pg from "pg";

/** One PostgreSQL connection listening on a channel, able to notify on it too. */
export interface PgChannel {
  ready: Promise<void>;
  /** NOTIFY on the channel through this connection (in call order); false when it is down (dropped). */
  notify(payload: string): boolean;
  close(): Promise<void>;
}

/**
 * LISTENs on `channel` and hands each payload to `onPayload`. The connection reconnects a second after
 * a loss; a notification sent while it was down is not replayed (callers say what that costs them).
 * Shared by the live events and the live command output that cross instances.
 */
export function listenOnChannel(
  url: string,
  channel: string,
  onPayload: (payload: string | undefined) => Promise<void> | void,
  onProblem: (error: unknown) => void,
): PgChannel {
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;

  const connect = async () => {
    if (closed) return;
    const next = new pg.Client({ connectionString: url });
    next.on("notification", (message) => {
      if (message.channel !== channel) return;
      void Promise.resolve()
        .then(() => onPayload(message.payload))
        .catch(onProblem);
    });
    next.on("error", (error) => {
      onProblem(error);
      reconnect(next);
    });
    next.on("end", () => reconnect(next));
    try {
      await next.connect();
      await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      client = next;
    } catch (error) {
      onProblem(error);
      reconnect(next);
    }
  };
  const reconnect = (lost: pg.Client) => {
    if (closed || retry || (client !== null && client !== lost)) return;
    client = null;
    void lost.end().catch(() => undefined);
    retry = setTimeout(() => {
      retry = null;
      void connect();
    }, 1_000);
    retry.unref();
  };

  const ready = connect();
  return {
    ready,
    notify(payload) {
      if (client === null || closed) return false;
      client.query("SELECT pg_notify($1, $2)", [channel, payload]).catch(onProblem);
      return true;
    },
    close: async () => {
      closed = true;
      if (retry) clearTimeout(retry);
      await ready;
      await client?.end().catch(() => undefined);
    },
  };
}
