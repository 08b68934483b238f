import NextAuth from "next-auth";
import { authOptions } from "@/server/auth/options";
import { asTooManyRequests } from "@/server/auth/too-many-requests";
import { BODY_LIMITS } from "@/server/http/body-limit";
import { withBodyLimit } from "@/server/http/route-handlers";

// Sign-in, sign-out and the CSRF form: small forms from people who are not signed in yet.
const nextAuth = NextAuth(authOptions);
const handler = withBodyLimit(BODY_LIMITS.anonymous, async (request, context) =>
  asTooManyRequests(await nextAuth(request, context)),
);

export { handler as GET, handler as POST };
