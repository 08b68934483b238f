/**
 * The session's log as plain JSON (app/api/sessions/[sessionId]/events): preloaded by the replay
 * page on the server, fetched by the replay view in the browser. A plain module, so both can call it.
 */
export function replayLogUrl(sessionId: string): string {
  return `/api/sessions/${encodeURIComponent(sessionId)}/events`;
}
