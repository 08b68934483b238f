import "server-only";
import { EgressPhaseSetBody } from "@/server/domain/events/bodies/environment";
import type { EgressSettings } from "@/server/domain/vocabulary/egress";
import { restoredEgress } from "@/server/domain/vocabulary/egress-restore";
import type { EventStore } from "@/server/events/store";
import type { PrismaClient } from "@/server/generated/prisma/client";
import type { EgressRecords } from "@/server/sandbox/types";

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
  const lastPhase = async (sessionId: string) => {
    const row = await deps.db.event.findFirst({
      where: { sessionId, type: "egress-phase-set" },
      orderBy: { seq: "desc" },
      select: { payload: true },
    });
    return row ? EgressPhaseSetBody.parse(JSON.parse(row.payload)) : null;
  };
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
