import type { EventOf, EventType, StoredEvent } from "@/server/domain/events/schema";
import type { Prisma } from "@/server/generated/prisma/client";
import { enqueueWebhooks } from "./webhook-outbox";

type Tx = Prisma.TransactionClient;

type Projector<T extends EventType> = (
  tx: Tx,
  body: EventOf<T>,
  where: { sessionId: string; at: Date },
) => Promise<void>;

/**
 * The query tables that mirror the log, by event type. An event type with no entry is kept in the
 * log only (nothing queries it as rows): adding an event type needs an entry here only when a table
 * should show it.
 */
const PROJECTORS: { [T in EventType]?: Projector<T> } = {
  "message-posted": async (tx, body, { sessionId, at }) => {
    await tx.message.create({
      data: {
        id: body.messageId,
        sessionId,
        runId: body.runId,
        role: body.role,
        text: body.text,
        createdAt: at,
      },
    });
  },
  "run-started": async (tx, body, { sessionId, at }) => {
    await tx.run.create({
      data: {
        id: body.runId,
        sessionId,
        task: body.task,
        mode: body.mode,
        modelId: body.model.id,
        modelLabel: body.model.label,
        offline: body.model.offline,
        status: "RUNNING",
        startedAt: at,
      },
    });
  },
  "intention-created": async (tx, body) => {
    await tx.intention.create({
      data: {
        id: body.intentionId,
        runId: body.runId,
        parentId: body.parentId,
        what: body.what,
        acceptance: body.acceptance,
        depth: body.depth,
        position: body.position,
        status: "PENDING",
      },
    });
  },
  "intention-status-changed": async (tx, body) => {
    await tx.intention.update({
      where: { id: body.intentionId },
      data: { status: body.status, reason: body.reason },
    });
  },
  "approval-requested": async (tx, body, { sessionId, at }) => {
    await tx.approval.create({
      data: {
        id: body.approvalId,
        runId: body.runId,
        sessionId,
        intentionId: body.intentionId,
        kind: body.kind,
        status: "PENDING",
        payload: JSON.stringify({
          thought: body.thought,
          children: body.children,
          command: body.command,
          call: body.call,
        }),
        createdAt: at,
      },
    });
  },
  "approval-decided": async (tx, body, { at }) => {
    await tx.approval.update({
      where: { id: body.approvalId },
      data: {
        status: body.decision === "approved" ? "APPROVED" : "REJECTED",
        reason: body.reason,
        decidedById: body.decidedBy.userId,
        decidedAt: at,
      },
    });
  },
  "approval-assigned": async (tx, body) => {
    await tx.approval.update({
      where: { id: body.approvalId },
      data: { assignedToId: body.assignee?.userId ?? null },
    });
  },
  "cycle-started": async (tx, body, { at }) => {
    await tx.cycle.create({
      data: {
        id: body.cycleId,
        intentionId: body.intentionId,
        runId: body.runId,
        index: body.index,
        thought: body.thought,
        actionType: body.action.type,
        actionContent: body.action.content,
        actionTarget: body.action.target,
        startedAt: at,
      },
    });
  },
  "cycle-result": async (tx, body, { at }) => {
    await tx.cycle.update({
      where: { id: body.cycleId },
      data: { exitCode: body.exitCode, output: body.error ?? body.output, endedAt: at },
    });
  },
  "cycle-judged": async (tx, body) => {
    await tx.cycle.update({
      where: { id: body.cycleId },
      data: { judgment: body.judgment, judgedBy: body.judgedBy },
    });
  },
  "cycle-reflected": async (tx, body) => {
    await tx.cycle.update({ where: { id: body.cycleId }, data: { reflection: body.reflection } });
  },
  "run-ended": async (tx, body, { at }) => {
    await tx.run.update({
      where: { id: body.runId },
      data: { status: body.status, reason: body.reason, endedAt: at },
    });
  },
};

/**
 * Writes the query tables that mirror the log. Called inside the transaction that appends the
 * event, so a reader never sees a table row without the event that explains it (or the reverse).
 */
export async function project(tx: Tx, sessionId: string, event: StoredEvent): Promise<void> {
  const projector = PROJECTORS[event.body.type] as Projector<EventType> | undefined;
  await projector?.(tx, event.body, { sessionId, at: new Date(event.at) });
  await enqueueWebhooks(tx, sessionId, event);
}
