import "server-only";
import { randomUUID } from "node:crypto";
import type { SqlTx } from "@/server/db-driver";
import type { StoredEvent } from "@/server/domain/events/schema";
import { insertRows } from "./bulk-insert";

/**
 * Issue #21.4's outbox: the run events a team's webhooks hear of, written as delivery rows in the
 * transaction that appends the event — so a crash after the append loses no delivery, and a delivery
 * never exists for an event that was not stored. The worker (server/teams/webhook-worker.ts) sends them.
 */

/** What each webhook is told, by the event that caused it. */
function payloadOf(event: StoredEvent): Record<string, unknown> | null {
  const body = event.body;
  switch (body.type) {
    case "run-started":
      return { event: "run.started", runId: body.runId, task: body.task.slice(0, 500) };
    case "approval-requested":
      return { event: "run.waiting", runId: body.runId, approvalId: body.approvalId, kind: body.kind };
    case "run-ended":
      return { event: "run.ended", runId: body.runId, status: body.status, reason: body.reason };
    default:
      return null;
  }
}

/** Whether some event of the batch is one a webhook hears of (the append then looks the webhooks up). */
export function webhooksHearAny(events: readonly StoredEvent[]): boolean {
  return events.some((event) => payloadOf(event) !== null);
}

/**
 * The deliveries a batch of events causes, written with one insert (in event order); the session's
 * webhooks are looked up once, and only when some event of the batch is one a webhook hears of.
 */
export async function enqueueWebhooks(
  tx: SqlTx,
  sessionId: string,
  events: readonly StoredEvent[],
): Promise<void> {
  const heard = events.flatMap((event) => {
    const payload = payloadOf(event);
    return payload ? [{ event, payload }] : [];
  });
  if (heard.length === 0) return;
  const hooks = await tx.query<{ projectId: string; webhookId: string }>(
    `SELECT s."projectId" AS "projectId", w."id" AS "webhookId" FROM "Session" s
       JOIN "Project" p ON p."id" = s."projectId"
       JOIN "TeamWebhook" w ON w."teamId" = p."teamId"
     WHERE s."id" = ? ORDER BY w."createdAt", w."id"`,
    [sessionId],
  );
  const projectId = hooks[0]?.projectId;
  if (projectId === undefined) return;
  // The columns Prisma would fill in are given here (raw SQL gets none of its defaults): the id, and
  // the times in Prisma's own format, which the worker compares.
  const now = new Date();
  await insertRows(
    tx,
    "WebhookDelivery",
    heard.flatMap(({ event, payload }) => {
      const body = JSON.stringify({
        ...payload,
        sessionId,
        projectId,
        at: event.at,
        path: `/projects/${projectId}/sessions/${sessionId}`,
      });
      return hooks.map((hook) => ({
        id: randomUUID(),
        webhookId: hook.webhookId,
        event: String(payload.event),
        payload: body,
        status: "PENDING",
        attempts: 0,
        nextAttemptAt: now,
        createdAt: now,
      }));
    }),
  );
}
