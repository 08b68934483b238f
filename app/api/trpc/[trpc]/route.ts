import { getServerSession } from "next-auth";
import { appRouter } from "@/server/api/root";
import { createContext } from "@/server/api/trpc";
import { bearerOf, isActiveBearer } from "@/server/auth/api-tokens";
import { authOptions } from "@/server/auth/options";
import { db } from "@/server/db";
import { trpcRouteHandler } from "@/server/http/route-handlers";

export const dynamic = "force-dynamic";

const handler = trpcRouteHandler({
  endpoint: "/api/trpc",
  router: appRouter,
  createContext,
  signedIn: async (request) => {
    const secret = bearerOf(request.headers.get("authorization"));
    if (secret) return isActiveBearer(db, secret);
    return Boolean(await getServerSession(authOptions));
  },
});

export { handler as GET, handler as POST };
