import { UserFacingError } from "@/server/domain/errors";
import {
  checkRemoval,
  checkRoleChange,
  parseRole,
  type Role,
  type Verdict,
} from "@/server/domain/vocabulary/team-roles";
import type { Prisma, PrismaClient } from "@/server/generated/prisma/client";

type Tx = Prisma.TransactionClient;

export async function createTeam(db: PrismaClient, userId: string, name: string) {
  return db.$transaction(async (tx) => {
    const team = await tx.team.create({ data: { name } });
    await tx.membership.create({ data: { userId, teamId: team.id, role: "owner" } });
    return { id: team.id, name: team.name };
  });
}

/** The caller's teams with their role in each, personal team first. */
export async function teamsOf(db: PrismaClient, userId: string) {
  const memberships = await db.membership.findMany({
    where: { userId },
    include: { team: { include: { _count: { select: { memberships: true, projects: true } } } } },
    orderBy: { createdAt: "asc" },
  });
  return memberships.flatMap((membership) => {
    const role = parseRole(membership.role);
    if (!role) return [];
    const { team } = membership;
    return [
      {
        id: team.id,
        name: team.name,
        personal: team.personal,
        role,
        members: team._count.memberships,
        projects: team._count.projects,
      },
    ];
  });
}

export async function membersOf(db: PrismaClient, teamId: string) {
  const memberships = await db.membership.findMany({
    where: { teamId },
    include: { user: { select: { id: true, name: true, email: true } } },
    orderBy: { createdAt: "asc" },
  });
  return memberships.flatMap((membership) => {
    const role = parseRole(membership.role);
    return role
      ? [{ userId: membership.user.id, name: membership.user.name, email: membership.user.email, role }]
      : [];
  });
}

async function memberOrThrow(tx: Tx, teamId: string, userId: string) {
  const membership = await tx.membership.findUnique({ where: { userId_teamId: { userId, teamId } } });
  const role = parseRole(membership?.role);
  if (!membership || !role) throw new UserFacingError("That person is not in this team.", "NOT_FOUND");
  return { id: membership.id, userId, role };
}

function enforce(verdict: Verdict): void {
  if (!verdict.ok) throw new UserFacingError(verdict.message, verdict.code);
}

/** Owners left after a change; a transaction that would leave none is rolled back. */
async function assertOwnerLeft(tx: Tx, teamId: string): Promise<void> {
  if ((await tx.membership.count({ where: { teamId, role: "owner" } })) === 0)
    throw new UserFacingError("A team needs at least one owner.", "CONFLICT");
}

export async function changeRole(
  db: PrismaClient,
  input: { teamId: string; actor: { userId: string; role: Role }; userId: string; role: Role },
) {
  return db.$transaction(async (tx) => {
    const target = await memberOrThrow(tx, input.teamId, input.userId);
    const ownerCount = await tx.membership.count({ where: { teamId: input.teamId, role: "owner" } });
    enforce(checkRoleChange({ actor: input.actor, target, next: input.role, ownerCount }));
    await tx.membership.update({ where: { id: target.id }, data: { role: input.role } });
    await assertOwnerLeft(tx, input.teamId);
    return { userId: input.userId, role: input.role };
  });
}

/** Removes a member, or the actor themselves when `userId` is theirs (leaving). */
export async function removeMember(
  db: PrismaClient,
  input: { teamId: string; actor: { userId: string; role: Role }; userId: string },
) {
  return db.$transaction(async (tx) => {
    const target = await memberOrThrow(tx, input.teamId, input.userId);
    const ownerCount = await tx.membership.count({ where: { teamId: input.teamId, role: "owner" } });
    enforce(checkRemoval({ actor: input.actor, target, ownerCount }));
    await tx.membership.delete({ where: { id: target.id } });
    await assertOwnerLeft(tx, input.teamId);
    return { removed: input.userId };
  });
}
