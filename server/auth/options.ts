import bcrypt from "bcryptjs";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import GitHubProvider from "next-auth/providers/github";
import { z } from "zod";
import { db } from "@/server/db";
import { env } from "@/server/env";
import { logger } from "@/server/logger";
import { findOrCreateGitHubUser } from "./users";

const Credentials = z.object({ email: z.email(), password: z.string().min(1) });

/**
 * next-auth with JWT sessions: email + password (bcrypt hashes) always, GitHub only when its OAuth
 * app is configured. The token carries our user id; everything else is read from the database.
 */
export const authOptions: NextAuthOptions = {
  secret: env.NEXTAUTH_SECRET,
  session: { strategy: "jwt" },
  pages: { signIn: "/login" },
  providers: [
    CredentialsProvider({
      name: "Email",
      credentials: {
        email: { label: "Email", type: "email" },
        password: { label: "Password", type: "password" },
      },
      async authorize(raw) {
        const parsed = Credentials.safeParse(raw);
        if (!parsed.success) return null;
        const user = await db.user.findUnique({ where: { email: parsed.data.email.toLowerCase() } });
        if (!user?.passwordHash) return null;
        const ok = await bcrypt.compare(parsed.data.password, user.passwordHash);
        if (!ok) {
          logger.info({ userId: user.id }, "sign-in refused: wrong password");
          return null;
        }
        return { id: user.id, email: user.email, name: user.name };
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
