import { TRPCError } from "@trpc/server";
import { preload } from "react-dom";
import { appRouter } from "@/server/api/root";
import { createContext } from "@/server/api/trpc";
import { requireUserId } from "@/server/auth/session";
import { logger } from "@/server/logger";
import { AppHeader } from "../../../../../_components/app-header";
import { replayLogUrl } from "../../../../../_components/replay/log-url";
import { type ReplaySession, ReplayView } from "../../../../../_components/replay/replay-view";

export const dynamic = "force-dynamic";

/**
 * The replay page. Its HTML asks the browser to start downloading the session's log at once (a
 * preload), so the log arrives while the page's scripts load instead of after them; the session's
 * name is read here, through the session router, so the page needs no other request to draw.
 */
export default async function ReplayPage({
  params,
}: {
  params: Promise<{ projectId: string; sessionId: string }>;
}) {
  await requireUserId();
  const { sessionId } = await params;
  const session = await loadSession(sessionId);
  if (session.ok) preload(replayLogUrl(sessionId), { as: "fetch", crossOrigin: "anonymous" });
  return (
    <>
      <AppHeader />
      <main className="page wide">
        <ReplayView sessionId={sessionId} session={session} />
      </main>
    </>
  );
}

async function loadSession(sessionId: string): Promise<ReplaySession> {
  try {
    const session = await appRouter.createCaller(await createContext()).session.getById({ sessionId });
    return { ok: true, title: session.title, project: session.project };
  } catch (error) {
    // A refusal's own words (not found, not a member); anything else is logged, not shown.
    if (error instanceof TRPCError && error.code !== "INTERNAL_SERVER_ERROR")
      return { ok: false, message: error.message };
    logger.error({ err: error, sessionId }, "replay failed to load");
    return { ok: false, message: "Something went wrong on the server. It has been logged." };
  }
}
