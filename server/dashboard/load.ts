import { type EventType, StoredEvent } from "@/server/domain/events/schema";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { type SessionLog, type TeamMember, type TeamMetrics, teamMetrics } from "./team-metrics";

/** The only event types the dashboard reads: the rest of a log (outputs, messages) is never loaded. */
export const DASHBOARD_EVENT_TYPES = [
  "run-started",
  "run-ended",
  "intention-status-changed",
  "cycle-started",
  "llm-called",
  "approval-requested",
  "approval-decided",
  "trace-recorded",
  "work-merged",
] as const satisfies readonly EventType[];

export const DASHBOARD_DAYS = 30;

/** Reads a team's logs and computes its dashboard. The caller has already checked membership. */
export async function loadTeamMetrics(
  db: PrismaClient,
  teamId: string,
  now = new Date(),
): Promise<{ members: TeamMember[]; metrics: TeamMetrics }> {
  const [memberships, sessions, rows] = await Promise.all([
    db.membership.findMany({
      where: { teamId },
      select: { user: { select: { id: true, name: true } } },
      orderBy: { createdAt: "asc" },
    }),
    db.session.findMany({ where: { project: { teamId } }, select: { id: true, createdById: true } }),
    db.event.findMany({
      where: { session: { project: { teamId } }, type: { in: [...DASHBOARD_EVENT_TYPES] } },
      select: { sessionId: true, seq: true, payload: true, createdAt: true },
      orderBy: [{ sessionId: "asc" }, { seq: "asc" }],
    }),
  ]);
  const logs = new Map<string, SessionLog & { events: StoredEvent[] }>(
    sessions.map((s) => [s.id, { sessionId: s.id, createdById: s.createdById, events: [] }]),
  );
  for (const row of rows) {
    logs
      .get(row.sessionId)
      ?.events.push(
        StoredEvent.parse({ seq: row.seq, at: row.createdAt.toISOString(), body: JSON.parse(row.payload) }),
      );
  }
  const members = memberships.map((m) => ({ userId: m.user.id, name: m.user.name }));
  return { members, metrics: teamMetrics([...logs.values()], members, { now, days: DASHBOARD_DAYS }) };
}
