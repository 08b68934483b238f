"use client";

import { useEffect, useState } from "react";
import { useTRPCClient } from "../../_trpc/client";

/**
 * Answers being written right now, by run: the text so far. Ephemeral (never stored): when an answer
 * is done its partial disappears and the stored `message-posted` takes its place in the chat.
 *
 * The stream is open only while an answer is being written (`active`): a browser keeps six
 * connections per host, and a session page already holds its event stream (and the terminal's), so
 * an idle stream per page would starve a second tab. Each partial carries the whole text so far, so
 * a stream that opens a moment late loses nothing.
 */
export function useAnswerStream(sessionId: string, active: boolean): Record<string, string> {
  const client = useTRPCClient();
  const [partials, setPartials] = useState<Record<string, string>>({});
  useEffect(() => {
    setPartials({});
    if (!active) return;
    const subscription = client.session.answerStream.subscribe(
      { sessionId },
      {
        onData: (partial) =>
          setPartials((current) => {
            const next = { ...current };
            if (partial.done) delete next[partial.runId];
            else next[partial.runId] = partial.text;
            return next;
          }),
      },
    );
    return () => subscription.unsubscribe();
  }, [client, sessionId, active]);
  return partials;
}
