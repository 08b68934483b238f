import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { appRouter } from "@/server/api/root";
import { createContext } from "@/server/api/trpc";
import { BODY_LIMITS } from "@/server/http/body-limit";
import { withBodyLimit } from "@/server/http/route-handlers";
import { logger } from "@/server/logger";

export const dynamic = "force-dynamic";

/**
 * A session's whole log as plain JSON (`StoredEvent[]`), for the replay. It is the session router's
 * `eventLog` procedure (so the same membership check, covered by router-auth's walk), served bare: a
 * tRPC response would wrap the 3 MB of a 10 000-event log in a JSON string, escaped once more and
 * parsed twice, and it could only start after the page's scripts. The replay page preloads this URL
 * from its HTML, so the download runs while the scripts load.
 */
export const GET = withBodyLimit(
  BODY_LIMITS.anonymous,
  async (request, { params }: { params: Promise<{ sessionId: string }> }) => {
    const { sessionId } = await params;
    try {
      const log = await appRouter
        .createCaller(await createContext({ req: request }))
        .session.eventLog({ sessionId });
      return new Response(log, {
        headers: { "content-type": "application/json; charset=utf-8", "cache-control": "private, no-store" },
      });
    } catch (error) {
      if (error instanceof TRPCError && error.code !== "INTERNAL_SERVER_ERROR")
        return Response.json({ error: error.message }, { status: getHTTPStatusCodeFromError(error) });
      logger.error({ err: error, sessionId }, "replay log failed to load");
      return Response.json(
        { error: "Something went wrong on the server. It has been logged." },
        { status: 500 },
      );
    }
  },
);
