import type { StoredEvent } from "@/server/domain/events/schema";
import { applyEvent, emptySessionView } from "@/server/domain/session/fold";
import type { RunView, SessionView } from "@/server/domain/session/view";
import type { ArborClient } from "./client";
import { asCliError } from "./client";
import { runLines } from "./tree";

export interface FollowHooks {
  /** Each event as it arrives, folded into `view` already. */
  onEvent: (event: StoredEvent, view: SessionView) => void;
  /** Called after each event; returns true once following may stop. */
  done: (view: SessionView) => boolean;
  /** Stops following from outside (an answer that ends the command), resolving with the view so far. */
  signal?: AbortSignal;
}

/**
 * Follows a session's events from the start over the browser's SSE subscription, folding them with
 * the browser's fold, until `done` says so. The link resumes after a dropped connection from the last
 * event id it saw, and the fold ignores anything already folded.
 */
export function followSession(
  client: ArborClient,
  sessionId: string,
  hooks: FollowHooks,
): Promise<SessionView> {
  const view = emptySessionView();
  return new Promise((resolve, reject) => {
    let finished = false;
    const subscription = client.session.events.subscribe(
      { sessionId, lastEventId: null },
      {
        onData: (tracked) => {
          if (finished) return;
          const event = tracked.data as StoredEvent;
          applyEvent(view, event);
          hooks.onEvent(event, view);
          if (hooks.done(view)) {
            finished = true;
            subscription.unsubscribe();
            resolve(view);
          }
        },
        onError: (error: unknown) => {
          if (finished) return;
          finished = true;
          subscription.unsubscribe();
          reject(asCliError(error));
        },
      },
    );
    hooks.signal?.addEventListener("abort", () => {
      if (finished) return;
      finished = true;
      subscription.unsubscribe();
      resolve(view);
    });
  });
}

/** Prints each line of a run's tree once, as it first appears (statuses, cycles, checks). */
export function treePrinter(write: (text: string) => void) {
  const printed = new Set<string>();
  return (view: SessionView, run: RunView) => {
    for (const line of runLines(view, run)) {
      if (printed.has(line.key)) continue;
      printed.add(line.key);
      write(line.text);
    }
  };
}
