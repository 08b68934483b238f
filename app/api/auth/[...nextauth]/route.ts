import NextAuth from "next-auth";
import { authOptions } from "@/server/auth/options";
import { BODY_LIMITS } from "@/server/http/body-limit";
import { withBodyLimit } from "@/server/http/route-handlers";

// Sign-in, sign-out and the CSRF form: small forms from people who are not signed in yet.
const handler = withBodyLimit(BODY_LIMITS.anonymous, NextAuth(authOptions));

export { handler as GET, handler as POST };
