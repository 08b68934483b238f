import { describe, expect, it } from "vitest";
import { hashInviteToken, inviteProblem, inviteState, newInviteToken } from "./invite-state";

const now = new Date("2026-11-22T08:00:00.000Z");
const later = new Date("2026-11-29T08:00:00.000Z");

describe("invite links", () => {
  it("is valid until it expires, is used or is revoked", () => {
    expect(inviteState({ expiresAt: later, usedAt: null, revokedAt: null }, now)).toBe("valid");
    expect(inviteState({ expiresAt: now, usedAt: null, revokedAt: null }, now)).toBe("expired");
    expect(inviteState({ expiresAt: later, usedAt: now, revokedAt: null }, now)).toBe("used");
    expect(inviteState({ expiresAt: later, usedAt: now, revokedAt: now }, now)).toBe("revoked");
  });

  it("makes unguessable tokens and stores only their hash", () => {
    const token = newInviteToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(newInviteToken()).not.toBe(token);
    expect(hashInviteToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashInviteToken(token)).not.toContain(token);
  });

  it("says when a link expired and what to do", () => {
    expect(inviteProblem("expired", now)).toBe(
      "This invite link expired on 2026-11-22 08:00 UTC. Ask the team's owner or an admin for a new one.",
    );
    expect(inviteProblem("used", now)).toContain("already been used");
  });
});
