import "server-only";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import GitHubProvider from "next-auth/providers/github";
import { z } from "zod";
import { db } from "@/server/db";
import { env } from "@/server/env";
import { clientAddress, compileTrust } from "@/server/http/client-address";
import { logger } from "@/server/logger";
import { createSignInGuard, tooManyAttemptsMessage } from "./sign-in-guard";
import { findOrCreateGitHubUser } from "./users";

const Credentials = z.object({ email: z.email(), password: z.string().min(1).max(200) });

const signInGuard = createSignInGuard(db, {
  accountLimit: env.ARBOR_SIGN_IN_ACCOUNT_LIMIT,
  addressLimit: env.ARBOR_SIGN_IN_ADDRESS_LIMIT,
  windowSeconds: env.ARBOR_SIGN_IN_WINDOW_SECONDS,
});
const trustProxy = compileTrust(env.ARBOR_TRUSTED_PROXIES);

/**
 * next-auth with JWT sessions: email + password (bcrypt hashes) always, GitHub only when its OAuth
 * app is configured. The token carries our user id; everything else is read from the database.
 */
export const authOptions: NextAuthOptions = {
  // Read when next-auth handles a request, not when the build imports this module (see server/env.ts).
  get secret() {
    return env.NEXTAUTH_SECRET;
  },
  session: { strategy: "jwt" },
  pages: { signIn: "/login" },
  providers: [
    CredentialsProvider({
      name: "Email",
      credentials: {
        email: { label: "Email", type: "email" },
        password: { label: "Password", type: "password" },
      },
      async authorize(raw, request) {
        const parsed = Credentials.safeParse(raw);
        if (!parsed.success) return null;
        const address = clientAddress(request.headers ?? {}, trustProxy);
        const outcome = await signInGuard.attempt({ ...parsed.data, address });
        if (outcome.ok) return outcome.user;
        if (outcome.reason === "too-many-attempts") {
          logger.warn(
            { address, retryAfter: outcome.retryAfterSeconds },
            "sign-in refused: too many attempts",
          );
          // next-auth hands a thrown message to the login form as its error.
          throw new Error(tooManyAttemptsMessage(outcome.retryAfterSeconds));
        }
        logger.info({ address }, "sign-in refused: wrong email or password");
        return null;
      },
    }),
    ...(env.GITHUB_ID && env.GITHUB_SECRET
      ? [GitHubProvider({ clientId: env.GITHUB_ID, clientSecret: env.GITHUB_SECRET })]
      : []),
  ],
  callbacks: {
    async signIn({ user, account, profile }) {
      if (account?.provider !== "github") return true;
      const email = user.email ?? (profile as { email?: string } | undefined)?.email;
      if (!email) return "/login?error=GitHubEmail";
      const local = await findOrCreateGitHubUser({
        githubId: account.providerAccountId,
        email,
        name: user.name ?? email,
      });
      user.id = local.id;
      return true;
    },
    async jwt({ token, user }) {
      if (user) token.sub = user.id;
      return token;
    },
    async session({ session, token }) {
      if (session.user && token.sub) (session.user as { id?: string }).id = token.sub;
      return session;
    },
  },
};

export const githubEnabled = Boolean(env.GITHUB_ID && env.GITHUB_SECRET);
