"use client";

import { useEffect, useState } from "react";
import { useTRPCClient } from "../../_trpc/client";

/**
 * Answers being written right now, by run: the text so far. Ephemeral (never stored): when an answer
 * is done its partial disappears and the stored `message-posted` takes its place in the chat.
 */
export function useAnswerStream(sessionId: string): Record<string, string> {
  const client = useTRPCClient();
  const [partials, setPartials] = useState<Record<string, string>>({});
  useEffect(() => {
    setPartials({});
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
  }, [client, sessionId]);
  return partials;
}
