import "server-only";
import { EgressPhaseSetBody } from "@/server/domain/events/bodies/environment";
import type { EgressPhase, EgressSettings } from "@/server/domain/vocabulary/egress";
import { restoredEgress } from "@/server/domain/vocabulary/egress-restore";
import type { EventStore } from "@/server/events/store";
import type { PrismaClient } from "@/server/generated/prisma/client";
import type { EgressRecords } from "@/server/sandbox/types";
import { repoRunSettings, type ServerRunDefaults } from "@/server/settings/repo-run-settings";

/**
 * A session's egress phase as its log recorded it, for a restarted server to give the running sandbox
 * back (issue #19): the last `egress-phase-set` in the database (whichever instance appended it),
 * narrowed to the project's settings now; what it got back is appended as the same event, marked
 * restored, under the run that set the phase, so the environment panel shows it like any phase.
 */
export function egressRecords(deps: {
  db: PrismaClient;
  store: Pick<EventStore, "append">;
  /** The project's network settings now (narrowed by its repository's file); throws when unreadable. */
  currentEgress(sessionId: string): Promise<EgressSettings>;
}): EgressRecords {
  const lastPhase = (sessionId: string) => lastPhaseSet(deps.db, sessionId);
  return {
    async restoreFor(sessionId) {
      const recorded = await lastPhase(sessionId);
      if (!recorded) return null;
      const current = await deps.currentEgress(sessionId).catch(() => null);
      return restoredEgress(recorded, current);
    },
    async restored(sessionId, applied, settings) {
      const recorded = await lastPhase(sessionId);
      if (!recorded) return;
      await deps.store.append(sessionId, [
        {
          type: "egress-phase-set",
          runId: recorded.runId,
          ...applied,
          getHeadOnly: settings[applied.phase].getHeadOnly,
          allowList: settings.allowList,
          restored: true,
        },
      ]);
    },
  };
}

/** The session's last `egress-phase-set` (of one phase when given); null when it has none. */
async function lastPhaseSet(db: PrismaClient, sessionId: string, phase?: EgressPhase) {
  const rows = await db.event.findMany({
    where: { sessionId, type: "egress-phase-set" },
    orderBy: { seq: "desc" },
    select: { payload: true },
    take: phase ? 20 : 1,
  });
  const bodies = rows.map((row) => EgressPhaseSetBody.parse(JSON.parse(row.payload)));
  return bodies.find((body) => !phase || body.phase === phase) ?? null;
}

/**
 * The network settings a session's next run applies: the project's now, with the agent phase never
 * wider than the session was given before ("running ones keep what they have"): narrowed to what its
 * last agent phase asked for (`requested`: a phase that ran Off because the proxy was down gets its
 * network when the proxy is back). A session with no agent phase yet gets the project's settings.
 */
export async function egressKeptBySession(
  db: PrismaClient,
  sessionId: string,
  current: EgressSettings,
): Promise<EgressSettings> {
  const recorded = await lastPhaseSet(db, sessionId, "agent");
  const restored = recorded && restoredEgress({ ...recorded, applied: recorded.requested }, current);
  if (!restored) return current;
  const agent = restored.settings.agent;
  return {
    ...current,
    agent,
    allowList: agent.mode === "custom" ? restored.settings.allowList : current.allowList,
  };
}

/** A session's project's network now, as the repository's file narrows it (the records' `currentEgress`). */
export function projectEgressOf(
  db: PrismaClient,
  runDefaults: ServerRunDefaults,
): (sessionId: string) => Promise<EgressSettings> {
  return async (sessionId) => {
    const { project } = await db.session.findUniqueOrThrow({
      where: { id: sessionId },
      include: { project: true },
    });
    return (await repoRunSettings(db, project, runDefaults)).egress.value;
  };
}
