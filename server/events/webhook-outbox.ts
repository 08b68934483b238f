import type { StoredEvent } from "@/server/domain/events/schema";
import type { Prisma } from "@/server/generated/prisma/client";

/**
 * Issue #21.4's outbox: the run events a team's webhooks hear of, written as delivery rows in the
 * transaction that appends the event — so a crash after the append loses no delivery, and a delivery
 * never exists for an event that was not stored. The worker (server/teams/webhook-worker.ts) sends them.
 */

type Tx = Prisma.TransactionClient;

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

/**
 * The deliveries a batch of events causes, written with one insert (in event order); the session's
 * webhooks are looked up once, and only when some event of the batch is one a webhook hears of.
 */
export async function enqueueWebhooks(
  tx: Tx,
  sessionId: string,
  events: readonly StoredEvent[],
): Promise<void> {
  const heard = events.flatMap((event) => {
    const payload = payloadOf(event);
    return payload ? [{ event, payload }] : [];
  });
  if (heard.length === 0) return;
  const session = await tx.session.findUnique({
    where: { id: sessionId },
    select: {
      projectId: true,
      project: { select: { team: { select: { webhooks: { select: { id: true } } } } } },
    },
  });
  const hooks = session?.project.team.webhooks ?? [];
  if (!session || hooks.length === 0) return;
  await tx.webhookDelivery.createMany({
    data: heard.flatMap(({ event, payload }) => {
      const body = JSON.stringify({
        ...payload,
        sessionId,
        projectId: session.projectId,
        at: event.at,
        path: `/projects/${session.projectId}/sessions/${sessionId}`,
      });
      return hooks.map((hook) => ({ webhookId: hook.id, event: String(payload.event), payload: body }));
    }),
  });
}
