import { TRPCError } from "@trpc/server";
import { appRouter } from "@/server/api/root";
import { createContext } from "@/server/api/trpc";
import { requireUserId } from "@/server/auth/session";
import { logger } from "@/server/logger";
import { AppHeader } from "../../../../../_components/app-header";
import { type ReplayLoad, ReplayView } from "../../../../../_components/replay/replay-view";

export const dynamic = "force-dynamic";

/**
 * The replay is rendered on the server with its log: the page arrives with the tree already drawn
 * (first paint does not wait for the page's scripts, then a tRPC round trip), and the browser folds the
 * same log again to scrub. The log is read through the session router's own procedures, so the
 * membership check is the one every tRPC caller gets.
 */
export default async function ReplayPage({
  params,
}: {
  params: Promise<{ projectId: string; sessionId: string }>;
}) {
  await requireUserId();
  const { sessionId } = await params;
  return (
    <>
      <AppHeader />
      <main className="page wide">
        <ReplayView sessionId={sessionId} load={await loadReplay(sessionId)} />
      </main>
    </>
  );
}

async function loadReplay(sessionId: string): Promise<ReplayLoad> {
  const caller = appRouter.createCaller(await createContext());
  try {
    const [session, log] = await Promise.all([
      caller.session.getById({ sessionId }),
      caller.session.eventLog({ sessionId }),
    ]);
    return { ok: true, session: { title: session.title, project: session.project }, log };
  } catch (error) {
    // A refusal's own words (not found, not a member); anything else is logged, not shown.
    if (error instanceof TRPCError && error.code !== "INTERNAL_SERVER_ERROR")
      return { ok: false, message: error.message };
    logger.error({ err: error, sessionId }, "replay failed to load");
    return { ok: false, message: "Something went wrong on the server. It has been logged." };
  }
}
