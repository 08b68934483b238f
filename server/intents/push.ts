import type { PrismaClient } from "@/server/generated/prisma/client";
import type { SandboxProvider } from "@/server/sandbox/types";
import { mirrorIntentsFile } from "./mirror";
import { intentsFileFor } from "./store";

/**
 * After a person changes a project's intents: the sessions of the project that have a run going get
 * the new file in their workspace right away, so the agent's next `select_active_intent` sees it.
 * Every other session gets it when its next run prepares the sandbox. Best effort: a sandbox that is
 * gone or busy is skipped (its next run mirrors again); the count says how many were reached.
 */
export async function pushIntentsToRunningSessions(
  deps: {
    db: PrismaClient;
    sandboxes: Pick<SandboxProvider, "get">;
    logger?: { warn(object: object, message: string): void };
  },
  projectId: string,
): Promise<number> {
  const content = await intentsFileFor(deps.db, projectId);
  if (content === null) return 0;
  const sessions = await deps.db.session.findMany({
    where: { projectId, runs: { some: { status: "RUNNING" } } },
    select: { id: true },
  });
  let reached = 0;
  for (const session of sessions) {
    try {
      const sandbox = await deps.sandboxes.get(session.id);
      if (!sandbox) continue;
      await mirrorIntentsFile(sandbox, content);
      reached += 1;
    } catch (error) {
      deps.logger?.warn(
        { err: error, sessionId: session.id },
        "could not mirror intents into a running session",
      );
    }
  }
  return reached;
}
