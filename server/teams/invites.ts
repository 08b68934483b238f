import { UserFacingError } from "@/server/domain/errors";
import { grantableRoles, parseRole, type Role } from "@/server/domain/vocabulary/team-roles";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { hashInviteToken, inviteProblem, inviteState, newInviteToken, UNKNOWN_INVITE } from "./invite-state";

const DAY_MS = 24 * 60 * 60 * 1000;

/** A new link; the token is returned once and only its hash is kept. */
export async function createInvite(
  db: PrismaClient,
  input: { teamId: string; actor: { userId: string; role: Role }; role: Role; expiresInDays: number },
  now = new Date(),
) {
  if (!grantableRoles(input.actor.role).includes(input.role))
    throw new UserFacingError("Only an owner can invite someone as an owner.", "FORBIDDEN");
  const token = newInviteToken();
  const invite = await db.invite.create({
    data: {
      teamId: input.teamId,
      tokenHash: hashInviteToken(token),
      role: input.role,
      createdById: input.actor.userId,
      expiresAt: new Date(now.getTime() + input.expiresInDays * DAY_MS),
    },
  });
  return { id: invite.id, token, role: input.role, expiresAt: invite.expiresAt };
}

/** Links of a team that can still be used, for the members page (never their tokens). */
export async function openInvites(db: PrismaClient, teamId: string, now = new Date()) {
  const invites = await db.invite.findMany({
    where: { teamId, usedAt: null, revokedAt: null, expiresAt: { gt: now } },
    orderBy: { createdAt: "desc" },
    select: { id: true, role: true, createdAt: true, expiresAt: true },
  });
  return invites;
}

export async function revokeInvite(db: PrismaClient, teamId: string, inviteId: string, now = new Date()) {
  const { count } = await db.invite.updateMany({
    where: { id: inviteId, teamId, revokedAt: null, usedAt: null },
    data: { revokedAt: now },
  });
  if (count === 0) throw new UserFacingError("That invite link is not open any more.", "NOT_FOUND");
}

async function findByToken(db: PrismaClient, token: string) {
  const invite = await db.invite.findUnique({
    where: { tokenHash: hashInviteToken(token) },
    include: { team: { select: { id: true, name: true } } },
  });
  if (!invite) throw new UserFacingError(UNKNOWN_INVITE, "NOT_FOUND");
  return invite;
}

/** What the invite page shows before the person joins: which team, which role, and whether it works. */
export async function describeInvite(db: PrismaClient, token: string, userId: string, now = new Date()) {
  const invite = await findByToken(db, token);
  const membership = await db.membership.findUnique({
    where: { userId_teamId: { userId, teamId: invite.teamId } },
  });
  const state = inviteState(invite, now);
  return {
    team: invite.team,
    role: invite.role,
    state,
    problem: state === "valid" ? null : inviteProblem(state, invite.expiresAt),
    memberAs: parseRole(membership?.role),
  };
}

/**
 * Joins the team with the link's role. Someone already in the team keeps their role and the link
 * stays unused. The link is consumed and the membership created in one transaction, and the
 * consumption is conditional, so two people racing for one link cannot both join.
 */
export async function acceptInvite(db: PrismaClient, token: string, userId: string, now = new Date()) {
  const invite = await findByToken(db, token);
  const existing = await db.membership.findUnique({
    where: { userId_teamId: { userId, teamId: invite.teamId } },
  });
  if (existing) return { teamId: invite.teamId, role: existing.role, joined: false };
  const state = inviteState(invite, now);
  if (state !== "valid")
    throw new UserFacingError(
      inviteProblem(state, invite.expiresAt),
      state === "used" ? "CONFLICT" : "PRECONDITION_FAILED",
    );
  return db.$transaction(async (tx) => {
    const { count } = await tx.invite.updateMany({
      where: { id: invite.id, usedAt: null, revokedAt: null, expiresAt: { gt: now } },
      data: { usedAt: now, usedById: userId },
    });
    if (count === 0) throw new UserFacingError(inviteProblem("used", invite.expiresAt), "CONFLICT");
    await tx.membership.create({ data: { userId, teamId: invite.teamId, role: invite.role } });
    return { teamId: invite.teamId, role: invite.role, joined: true };
  });
}
