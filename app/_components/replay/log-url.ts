import type { StoredEvent } from "@/server/domain/events/schema";

/**
 * The session's log as plain JSON (app/api/sessions/[sessionId]/events): preloaded by the replay
 * page on the server, fetched by the replay view in the browser. A plain module, so both can call it.
 */
export function replayLogUrl(sessionId: string): string {
  return `/api/sessions/${encodeURIComponent(sessionId)}/events`;
}

/** The whole log, read once for a replay; a refusal's own words become the error's message. */
export async function fetchReplayLog(sessionId: string): Promise<StoredEvent[]> {
  // The same request as the replay page's preload (same URL, same-origin credentials), so it is reused.
  const response = await fetch(replayLogUrl(sessionId));
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: string } | null;
    throw new Error(body?.error ?? `The session's log could not be loaded (HTTP ${response.status}).`);
  }
  return (await response.json()) as StoredEvent[];
}
