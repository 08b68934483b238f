import "server-only";
import bcrypt from "bcryptjs";
import { db } from "@/server/db";
import { UserFacingError } from "@/server/domain/errors";

const BCRYPT_ROUNDS = 10;

/** Every new user gets a personal team they own, so they can create projects at once. */
async function createUserWithTeam(data: {
  email: string;
  name: string;
  passwordHash?: string;
  githubId?: string;
}) {
  return db.$transaction(async (tx) => {
    const user = await tx.user.create({ data });
    const team = await tx.team.create({ data: { name: `${data.name}'s team`, personal: true } });
    await tx.membership.create({ data: { userId: user.id, teamId: team.id, role: "owner" } });
    return user;
  });
}

export async function signUp(input: { email: string; name: string; password: string }) {
  const email = input.email.trim().toLowerCase();
  const existing = await db.user.findUnique({ where: { email } });
  if (existing)
    throw new UserFacingError("An account with that email already exists. Sign in instead.", "CONFLICT");
  const passwordHash = await bcrypt.hash(input.password, BCRYPT_ROUNDS);
  const user = await createUserWithTeam({ email, name: input.name.trim(), passwordHash });
  return { id: user.id, email: user.email, name: user.name };
}

export async function findOrCreateGitHubUser(input: { githubId: string; email: string; name: string }) {
  const byGithub = await db.user.findUnique({ where: { githubId: input.githubId } });
  if (byGithub) return byGithub;
  const email = input.email.toLowerCase();
  const byEmail = await db.user.findUnique({ where: { email } });
  if (byEmail) return db.user.update({ where: { id: byEmail.id }, data: { githubId: input.githubId } });
  return createUserWithTeam({ email, name: input.name, githubId: input.githubId });
}
