"use client";

import { useEffect, useReducer, useRef, useState } from "react";
import { applyEvent, emptySessionView } from "@/server/domain/session/fold";
import type { SessionView } from "@/server/domain/session/view";
import { describeError, useTRPCClient } from "../../_trpc/client";

export type Connection = "connecting" | "live" | "reconnecting" | "error";

/**
 * Folds the session's event stream into a view. The subscription starts at sequence 0 and the
 * server sends the backlog then live events; on a reconnect the link resends the last event id it
 * saw, and `applyEvent` ignores anything already folded, so the view never skips or doubles.
 */
export function useSessionEvents(sessionId: string) {
  const client = useTRPCClient();
  const viewRef = useRef<SessionView>(emptySessionView());
  const [, rerender] = useReducer((count: number) => count + 1, 0);
  const [connection, setConnection] = useState<Connection>("connecting");
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    viewRef.current = emptySessionView();
    let frame: number | null = null;
    const schedule = () => {
      frame ??= requestAnimationFrame(() => {
        frame = null;
        rerender();
      });
    };
    const subscription = client.session.events.subscribe(
      { sessionId, lastEventId: null },
      {
        onStarted: () => setConnection("live"),
        onConnectionStateChange: (state) => {
          if (state.state === "connecting" && state.error) setConnection("reconnecting");
          if (state.state === "pending") setConnection("live");
        },
        onData: (tracked) => {
          applyEvent(viewRef.current, tracked.data);
          schedule();
        },
        onError: (caught) => {
          setConnection("error");
          setError(describeError(caught));
        },
      },
    );
    return () => {
      subscription.unsubscribe();
      if (frame !== null) cancelAnimationFrame(frame);
    };
  }, [client, sessionId]);

  return { view: viewRef.current, lastSeq: viewRef.current.lastSeq, connection, error };
}
