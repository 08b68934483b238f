import { createHash, randomBytes } from "node:crypto";

/**
 * Invitation links. Decisions: a link is single use (it adds one person) and expires after 1, 7 or
 * 30 days (7 by default); an owner or admin can revoke it before then. Only the SHA-256 of the
 * token is stored, so a database leak does not leak working links.
 */

export const INVITE_EXPIRY_DAYS = [1, 7, 30] as const;
export const DEFAULT_INVITE_EXPIRY_DAYS = 7;

export type InviteState = "valid" | "expired" | "used" | "revoked";

export function newInviteToken(): string {
  return randomBytes(24).toString("base64url");
}

export function hashInviteToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function inviteState(
  invite: { expiresAt: Date; usedAt: Date | null; revokedAt: Date | null },
  now: Date,
): InviteState {
  if (invite.revokedAt) return "revoked";
  if (invite.usedAt) return "used";
  if (invite.expiresAt.getTime() <= now.getTime()) return "expired";
  return "valid";
}

/** Why a link cannot be used, in words that say what to do next. */
export function inviteProblem(state: Exclude<InviteState, "valid">, expiresAt: Date): string {
  switch (state) {
    case "revoked":
      return "This invite link was revoked. Ask the team's owner or an admin for a new one.";
    case "used":
      return "This invite link has already been used (each link adds one person). Ask for a new one.";
    case "expired":
      return `This invite link expired on ${expiresAt.toISOString().slice(0, 16).replace("T", " ")} UTC. Ask the team's owner or an admin for a new one.`;
  }
}

export const UNKNOWN_INVITE =
  "This invite link is not valid. Check that you copied all of it, or ask the team for a new one.";
