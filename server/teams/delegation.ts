import { UserFacingError } from "@/server/domain/errors";
import { atLeast, can, parseRole, type Role } from "@/server/domain/vocabulary/team-roles";
import type { EventLog } from "@/server/events/log";
import type { PrismaClient } from "@/server/generated/prisma/client";

/**
 * Delegating an approval to a named member. The assignment is an event (`approval-assigned`), so the
 * card shows it live and replay keeps it; the Approval projection's `assignedToId` is what the
 * server checks when someone answers.
 */

async function pendingApproval(db: PrismaClient, sessionId: string, approvalId: string) {
  const approval = await db.approval.findFirst({ where: { id: approvalId, sessionId } });
  if (!approval) throw new UserFacingError("That approval does not exist.", "NOT_FOUND");
  return approval;
}

/** Members of the session's team who may answer approvals: the people one can delegate to. */
export async function assignableMembers(db: PrismaClient, teamId: string) {
  const memberships = await db.membership.findMany({
    where: { teamId },
    include: { user: { select: { id: true, name: true } } },
    orderBy: { createdAt: "asc" },
  });
  return memberships
    .filter((membership) => {
      const role = parseRole(membership.role);
      return role !== null && atLeast(role, "member");
    })
    .map((membership) => ({ userId: membership.user.id, name: membership.user.name }));
}

export async function assignApproval(
  deps: { db: PrismaClient; log: EventLog },
  input: {
    sessionId: string;
    teamId: string;
    approvalId: string;
    assigneeUserId: string | null;
    actor: { userId: string; name: string; role: Role };
  },
) {
  const approval = await pendingApproval(deps.db, input.sessionId, input.approvalId);
  if (approval.status !== "PENDING")
    throw new UserFacingError("That approval was already answered; it cannot be delegated.", "CONFLICT");
  assertMayAnswer(approval.assignedToId, input.actor);
  let assignee: { userId: string; name: string } | null = null;
  if (input.assigneeUserId) {
    const members = await assignableMembers(deps.db, input.teamId);
    assignee = members.find((member) => member.userId === input.assigneeUserId) ?? null;
    if (!assignee)
      throw new UserFacingError(
        "Approvals can be delegated only to a member, admin or owner of this team.",
        "BAD_REQUEST",
      );
  }
  await deps.log.append(input.sessionId, [
    {
      type: "approval-assigned",
      runId: approval.runId,
      approvalId: approval.id,
      assignee,
      assignedBy: { userId: input.actor.userId, name: input.actor.name },
    },
  ]);
  return { approvalId: approval.id, assignee };
}

function assertMayAnswer(assignedToId: string | null, actor: { userId: string; role: Role }): void {
  if (assignedToId && assignedToId !== actor.userId && !can(actor.role, "answerAnyApproval"))
    throw new UserFacingError(
      "This approval is delegated to another member: only they, an owner or an admin can answer it.",
      "FORBIDDEN",
    );
}

/** Before an answer is recorded: a delegated approval belongs to its assignee (and owners/admins). */
export async function assertMayAnswerApproval(
  db: PrismaClient,
  input: { sessionId: string; approvalId: string; actor: { userId: string; role: Role } },
): Promise<void> {
  const approval = await db.approval.findFirst({
    where: { id: input.approvalId, sessionId: input.sessionId },
    select: { assignedToId: true },
  });
  // An unknown approval is the orchestrator's to report (NOT_FOUND), with its own wording.
  if (approval) assertMayAnswer(approval.assignedToId, input.actor);
}
