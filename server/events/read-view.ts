import { emptySessionView, foldEvents, type SessionView } from "./fold";
import type { EventLog } from "./log";

/**
 * Reads a session's log from where `view` stopped and folds it in, page by page, until nothing is
 * left: the view as of now. Pass the view a caller keeps to catch it up; it is updated and returned.
 */
export async function readView(
  log: Pick<EventLog, "read">,
  sessionId: string,
  view: SessionView = emptySessionView(),
): Promise<SessionView> {
  for (;;) {
    const events = await log.read(sessionId, view.lastSeq);
    if (events.length === 0) return view;
    foldEvents(events, view);
  }
}
