import { getServerSession } from "next-auth";
import { appRouter } from "@/server/api/root";
import { createContext } from "@/server/api/trpc";
import { authOptions } from "@/server/auth/options";
import { trpcRouteHandler } from "@/server/http/route-handlers";

export const dynamic = "force-dynamic";

const handler = trpcRouteHandler({
  endpoint: "/api/trpc",
  router: appRouter,
  createContext,
  signedIn: async () => Boolean(await getServerSession(authOptions)),
});

export { handler as GET, handler as POST };
