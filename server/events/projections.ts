import type { StoredEvent } from "@/server/domain/events/schema";
import type { Prisma } from "@/server/generated/prisma/client";

type Tx = Prisma.TransactionClient;

/**
 * Writes the query tables that mirror the log. Called inside the transaction that appends the
 * event, so a reader never sees a table row without the event that explains it (or the reverse).
 */
export async function project(tx: Tx, sessionId: string, event: StoredEvent): Promise<void> {
  const body = event.body;
  const at = new Date(event.at);
  switch (body.type) {
    case "message-posted":
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
      return;
    case "run-started":
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
      return;
    case "intention-created":
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
      return;
    case "intention-status-changed":
      await tx.intention.update({
        where: { id: body.intentionId },
        data: { status: body.status, reason: body.reason },
      });
      return;
    case "approval-requested":
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
      return;
    case "approval-decided":
      await tx.approval.update({
        where: { id: body.approvalId },
        data: {
          status: body.decision === "approved" ? "APPROVED" : "REJECTED",
          reason: body.reason,
          decidedById: body.decidedBy.userId,
          decidedAt: at,
        },
      });
      return;
    case "approval-assigned":
      await tx.approval.update({
        where: { id: body.approvalId },
        data: { assignedToId: body.assignee?.userId ?? null },
      });
      return;
    case "cycle-started":
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
      return;
    case "cycle-result":
      await tx.cycle.update({
        where: { id: body.cycleId },
        data: { exitCode: body.exitCode, output: body.error ?? body.output, endedAt: at },
      });
      return;
    case "cycle-judged":
      await tx.cycle.update({
        where: { id: body.cycleId },
        data: { judgment: body.judgment, judgedBy: body.judgedBy },
      });
      return;
    case "cycle-reflected":
      await tx.cycle.update({ where: { id: body.cycleId }, data: { reflection: body.reflection } });
      return;
    case "run-ended":
      await tx.run.update({
        where: { id: body.runId },
        data: { status: body.status, reason: body.reason, endedAt: at },
      });
      return;
    case "sandbox-ready":
    case "sandbox-described":
    case "intent-discovered":
    case "decision-made":
    case "contract-built":
    case "criteria-checked":
    case "llm-called":
    case "run-routed":
    case "run-resumed":
    case "answer-tool-called":
    case "trace-recorded":
    case "workspace-changed":
    case "file-edited":
    case "file-renamed":
    case "file-deleted":
    case "folder-renamed":
    case "folder-deleted":
    case "work-saved":
    case "work-merged":
    case "work-discarded":
    case "egress-phase-set":
    case "setup-started":
    case "setup-ran":
    case "egress-connection":
    case "terminal-opened":
    case "terminal-typed":
    case "terminal-closed":
    case "budget-split":
    case "tool-called":
    case "tiers-configured":
    case "tier-escalated":
    case "context-compressed":
    case "context-restored":
    case "reasoning-recorded":
    case "correction-applied":
    case "run-pre-approved":
    case "qa-reported":
    case "delivery-reported":
    case "role-reported":
    case "intent-selected":
    case "check-ran":
    case "checks-baselined":
      // Kept in the log only; nothing queries them as rows yet.
      return;
    default: {
      const unreachable: never = body;
      throw new Error(`unprojected event ${JSON.stringify(unreachable)}`);
    }
  }
}
