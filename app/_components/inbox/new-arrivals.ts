/**
 * Which waiting approvals deserve a browser notification. Pure, so the rule is tested without a
 * browser: nothing on the first look (those were already waiting when the page opened), never the
 * same approval twice, and never for the session the person is looking at right now.
 */
export interface Arrival {
  approvalId: string;
  sessionId: string;
}

export function newArrivals<T extends Arrival>(
  seen: ReadonlySet<string> | null,
  items: readonly T[],
  watching: { sessionId: string | null; pageVisible: boolean },
): { notify: T[]; seen: Set<string> } {
  const next = new Set(items.map((item) => item.approvalId));
  if (seen === null) return { notify: [], seen: next };
  const notify = items.filter(
    (item) => !seen.has(item.approvalId) && !(watching.pageVisible && watching.sessionId === item.sessionId),
  );
  return { notify, seen: new Set([...seen, ...next]) };
}

/** The session a path shows, e.g. `/projects/p/sessions/s` or its replay. */
export function sessionOfPath(pathname: string): string | null {
  return /\/sessions\/([^/]+)/.exec(pathname)?.[1] ?? null;
}
