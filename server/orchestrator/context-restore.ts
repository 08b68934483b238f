import { UserFacingError } from "@/server/domain/errors";
import type { EventLog } from "@/server/events/log";
import { foldSessionLog } from "@/server/runtime/session-runtime";

/**
 * A person restores an item the intention's latest compression left out (the Restore button): the
 * engine's next act request of that intention includes it in full (riva/decide/act-context.ts). Only an item the
 * latest compression listed can be restored, and only while the run is going, since nothing else would
 * read it. Restoring twice is a no-op. The caller has checked the person may approve.
 */
export async function restoreContextItem(
  log: EventLog,
  input: {
    sessionId: string;
    runId: string;
    intentionId: string;
    itemId: string;
    actor: { userId: string; name: string };
  },
): Promise<{ restored: boolean }> {
  const view = await foldSessionLog(log, input.sessionId);
  const run = view.runs[input.runId];
  const intention = view.intentions[input.intentionId];
  if (!run || intention?.runId !== run.id)
    throw new UserFacingError("That intention does not exist in this run.", "NOT_FOUND");
  if (run.status !== "RUNNING")
    throw new UserFacingError("That run has ended: a restore only helps a running run.", "CONFLICT");
  const item = intention.compressed?.dropped.find((entry) => entry.id === input.itemId);
  if (!item)
    throw new UserFacingError(
      `Nothing called "${input.itemId}" was left out of this intention's latest request: there is nothing to restore.`,
      "NOT_FOUND",
    );
  if (intention.restored.some((entry) => entry.id === input.itemId)) return { restored: false };
  await log.append(input.sessionId, [
    {
      type: "context-restored",
      runId: run.id,
      intentionId: intention.id,
      restored: { item: item.item, id: input.itemId, sha256: item.sha256, label: item.label ?? null },
      restoredBy: input.actor,
    },
  ]);
  return { restored: true };
}
