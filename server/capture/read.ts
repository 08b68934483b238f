import type { StoredEvent } from "@/server/domain/events/schema";
import { foldEvents } from "@/server/domain/session/fold";
import type { SessionView } from "@/server/domain/session/view";
import type { EventStore } from "@/server/events/store";
import type { PrismaClient } from "@/server/generated/prisma/client";

/** How many recent sessions project memory looks at: enough to learn from, bounded in cost. */
export const MEMORY_SESSION_LIMIT = 30;

/** The whole log of a session; the store reads in pages, so keep reading until a page is empty. */
export async function readAllEvents(
  store: Pick<EventStore, "read">,
  sessionId: string,
): Promise<StoredEvent[]> {
  const events: StoredEvent[] = [];
  for (;;) {
    const page = await store.read(sessionId, events.at(-1)?.seq ?? 0);
    if (page.length === 0) return events;
    events.push(...page);
  }
}

/**
 * Folded views of the project's most recent sessions that have a VERIFIED run (the only runs project
 * memory learns from), so a project with many failed sessions costs no more to read.
 */
export async function projectSessionViews(
  deps: { db: PrismaClient; store: Pick<EventStore, "read"> },
  projectId: string,
): Promise<SessionView[]> {
  const sessions = await deps.db.session.findMany({
    where: { projectId, runs: { some: { status: "VERIFIED" } } },
    orderBy: { createdAt: "desc" },
    take: MEMORY_SESSION_LIMIT,
    select: { id: true },
  });
  const views: SessionView[] = [];
  for (const session of sessions) views.push(foldEvents(await readAllEvents(deps.store, session.id)));
  return views;
}
