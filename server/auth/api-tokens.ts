import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import { UserFacingError } from "@/server/domain/errors";
import { atLeast, parseRole, type Role, rank } from "@/server/domain/vocabulary/team-roles";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { logger } from "@/server/logger";

/**
 * Personal API tokens (issue #20) for the `arbor` CLI and CI. A token acts as the person who made it,
 * limited to one team, optionally to some of its projects, and to a role no higher than theirs. The
 * secret is 32 random bytes behind a recognisable prefix (so secret scanners and people can spot a
 * leaked one); only its SHA-256 is stored, and it is shown once, when it is made.
 */

export const TOKEN_PREFIX = "arb_";
/** Characters of the secret kept in clear to tell tokens apart (`arb_` and four more). */
const SHOWN_PREFIX_LENGTH = TOKEN_PREFIX.length + 4;
export const TOKEN_EXPIRY_DAYS = [7, 30, 90, 365] as const;
const DAY_MS = 24 * 60 * 60 * 1000;
/** lastUsedAt is written at most this often per token, so a busy CI job is not a write per call. */
const LAST_USED_GRANULARITY_MS = 60_000;

/** What a token caller may reach: the tRPC builders apply it on top of the user's membership. */
export interface TokenScope {
  id: string;
  name: string;
  teamId: string;
  /** Empty: every project of the team. */
  projectIds: string[];
  role: Role;
}

const ProjectIds = z.array(z.string()).catch([]);

export function hashApiToken(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

function newSecret(): string {
  return TOKEN_PREFIX + randomBytes(32).toString("base64url");
}

/** The lower of two roles: a token never lets its user do more than the user may today. */
export function lowerRole(a: Role, b: Role): Role {
  return rank(a) <= rank(b) ? a : b;
}

export async function createApiToken(
  db: PrismaClient,
  input: {
    userId: string;
    teamId: string;
    actorRole: Role;
    name: string;
    role: Role;
    projectIds: string[];
    expiresInDays: number | null;
  },
  now = new Date(),
) {
  if (!atLeast(input.actorRole, input.role))
    throw new UserFacingError(
      `A token cannot have a higher role than yours (${input.actorRole}). Choose ${input.actorRole} or lower.`,
      "FORBIDDEN",
    );
  const projectIds = [...new Set(input.projectIds)];
  if (projectIds.length > 0) {
    const found = await db.project.count({ where: { id: { in: projectIds }, teamId: input.teamId } });
    if (found !== projectIds.length)
      throw new UserFacingError("A chosen project is not in this team any more.", "NOT_FOUND");
  }
  const secret = newSecret();
  const token = await db.apiToken.create({
    data: {
      userId: input.userId,
      teamId: input.teamId,
      name: input.name,
      tokenHash: hashApiToken(secret),
      prefix: secret.slice(0, SHOWN_PREFIX_LENGTH),
      role: input.role,
      projectIds: JSON.stringify(projectIds),
      expiresAt: input.expiresInDays === null ? null : new Date(now.getTime() + input.expiresInDays * DAY_MS),
    },
  });
  logger.info({ tokenId: token.id, tokenName: token.name, teamId: token.teamId }, "api token created");
  return { id: token.id, name: token.name, token: secret, role: input.role, expiresAt: token.expiresAt };
}

/** The caller's tokens in a team, for the tokens section (never a secret or its hash). */
export async function tokensOf(db: PrismaClient, userId: string, teamId: string) {
  const tokens = await db.apiToken.findMany({
    where: { userId, teamId },
    orderBy: { createdAt: "desc" },
    select: {
      id: true,
      name: true,
      prefix: true,
      role: true,
      projectIds: true,
      createdAt: true,
      expiresAt: true,
      lastUsedAt: true,
      revokedAt: true,
    },
  });
  return tokens.map((token) => ({ ...token, projectIds: ProjectIds.parse(safeJson(token.projectIds)) }));
}

/** Revokes one of the caller's own tokens; revoking twice, or someone else's, is NOT_FOUND. */
export async function revokeApiToken(db: PrismaClient, userId: string, tokenId: string, now = new Date()) {
  const { count } = await db.apiToken.updateMany({
    where: { id: tokenId, userId, revokedAt: null },
    data: { revokedAt: now },
  });
  if (count === 0) throw new UserFacingError("That token is not active any more.", "NOT_FOUND");
  logger.info({ tokenId }, "api token revoked");
}

export type BearerResult =
  | { ok: true; user: { id: string; name: string; email: string }; scope: TokenScope }
  | { ok: false; message: string };

/**
 * Who a bearer secret speaks for. Every refusal says what to do next; none says whether a token with
 * that hash ever existed beyond "revoked" / "expired" (which only its holder can learn).
 */
export async function resolveBearer(
  db: PrismaClient,
  secret: string,
  now = new Date(),
): Promise<BearerResult> {
  if (!secret.startsWith(TOKEN_PREFIX))
    return { ok: false, message: "That is not an Arbor API token (they start with arb_)." };
  const token = await db.apiToken.findUnique({
    where: { tokenHash: hashApiToken(secret) },
    include: { user: { select: { id: true, name: true, email: true } } },
  });
  if (!token) return { ok: false, message: "Unknown API token. Create one on your team's page." };
  if (token.revokedAt)
    return { ok: false, message: `The API token "${token.name}" was revoked. Create a new one.` };
  if (token.expiresAt && token.expiresAt <= now)
    return { ok: false, message: `The API token "${token.name}" expired. Create a new one.` };
  const role = parseRole(token.role);
  if (!role) return { ok: false, message: `The API token "${token.name}" has no valid role.` };
  if (!token.lastUsedAt || now.getTime() - token.lastUsedAt.getTime() >= LAST_USED_GRANULARITY_MS)
    await db.apiToken.update({ where: { id: token.id }, data: { lastUsedAt: now } });
  logger.info({ tokenId: token.id, tokenName: token.name, userId: token.userId }, "api token used");
  return {
    ok: true,
    user: token.user,
    scope: {
      id: token.id,
      name: token.name,
      teamId: token.teamId,
      projectIds: ProjectIds.parse(safeJson(token.projectIds)),
      role,
    },
  };
}

/** Whether a secret names a usable token (no logging, no lastUsedAt): the body-size cap asks this. */
export async function isActiveBearer(db: PrismaClient, secret: string, now = new Date()): Promise<boolean> {
  if (!secret.startsWith(TOKEN_PREFIX)) return false;
  const token = await db.apiToken.findUnique({
    where: { tokenHash: hashApiToken(secret) },
    select: { revokedAt: true, expiresAt: true },
  });
  return Boolean(token && !token.revokedAt && (!token.expiresAt || token.expiresAt > now));
}

/** The secret in an `Authorization: Bearer …` header, or null when there is none. */
export function bearerOf(header: string | null | undefined): string | null {
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1] ?? null;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return [];
  }
}
