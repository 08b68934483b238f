import "server-only";
import bcrypt from "bcryptjs";
import { RateLimiterPrisma, RateLimiterRes } from "rate-limiter-flexible";
import type { PrismaClient } from "@/server/generated/prisma/client";

/**
 * Password sign-in with brute-force limits (rate-limiter-flexible, counts in the database through
 * RateLimiterPrisma, so every app instance on one database shares them):
 * - per account: `accountLimit` failed attempts per window;
 * - per client address: `addressLimit` failed attempts per window, across accounts.
 * An attempt takes its points before bcrypt runs, so concurrent guesses cannot slip past the limit;
 * a successful sign-in clears the account's count and gives the address its point back.
 * An unknown account costs one bcrypt compare against a dummy hash, like a known one, so timing does
 * not tell which emails have accounts.
 */
export interface SignInLimits {
  accountLimit: number;
  addressLimit: number;
  windowSeconds: number;
}

export type SignInOutcome =
  | { ok: true; user: { id: string; email: string; name: string } }
  | { ok: false; reason: "wrong-credentials" }
  | { ok: false; reason: "too-many-attempts"; retryAfterSeconds: number };

/** A bcrypt hash of a random string nobody knows (same cost as real hashes: 10 rounds). */
const DUMMY_HASH = bcrypt.hashSync(crypto.randomUUID(), 10);

export function tooManyAttemptsMessage(retryAfterSeconds: number): string {
  return `Too many sign-in attempts. Try again in ${retryAfterSeconds} s.`;
}

export function createSignInGuard(db: PrismaClient, limits: SignInLimits) {
  const store = { storeClient: db, tableName: "rateLimiterFlexible", duration: limits.windowSeconds };
  const byAccount = new RateLimiterPrisma({
    ...store,
    keyPrefix: "sign-in-account",
    points: limits.accountLimit,
  });
  const byAddress = new RateLimiterPrisma({
    ...store,
    keyPrefix: "sign-in-address",
    points: limits.addressLimit,
  });

  async function take(email: string, address: string): Promise<number | null> {
    const results = await Promise.allSettled([byAccount.consume(email), byAddress.consume(address)]);
    let waitMs = 0;
    for (const result of results) {
      if (result.status === "fulfilled") continue;
      // A rejection that is not a RateLimiterRes is a store failure: refuse (fail closed), never skip.
      if (!(result.reason instanceof RateLimiterRes)) throw result.reason;
      waitMs = Math.max(waitMs, result.reason.msBeforeNext);
    }
    return results.some((result) => result.status === "rejected")
      ? Math.max(1, Math.ceil(waitMs / 1000))
      : null;
  }

  return {
    async attempt(input: { email: string; password: string; address: string }): Promise<SignInOutcome> {
      const email = input.email.trim().toLowerCase();
      const retryAfterSeconds = await take(email, input.address);
      if (retryAfterSeconds !== null) return { ok: false, reason: "too-many-attempts", retryAfterSeconds };
      const user = await db.user.findUnique({ where: { email } });
      const ok = await bcrypt.compare(input.password, user?.passwordHash ?? DUMMY_HASH);
      if (!ok || !user?.passwordHash) return { ok: false, reason: "wrong-credentials" };
      await Promise.all([byAccount.delete(email), byAddress.reward(input.address, 1)]);
      return { ok: true, user: { id: user.id, email: user.email, name: user.name } };
    },
  };
}
