import { randomUUID } from "node:crypto";
import type { EventInput } from "@/server/domain/events/schema";
import { offlineCannotReadText } from "@/server/domain/intent/offline-syntax";

/** The reason on the run and its node-less tree: short, and the same words in every place. */
export const OFFLINE_CANNOT_READ_REASON =
  "The built-in offline model cannot read this request (no command or file in backticks): nothing was run.";

/**
 * A request the offline model cannot read (issue #17.3), answered at once: routed as an answer (no
 * intention tree, no cycle, no sandbox), the agent's message says what the model can do and how to
 * configure a real one, and the run ends FAILED with that reason. Nothing is claimed done.
 */
export function offlineCannotReadEvents(runId: string, kind: string, steps: readonly string[]): EventInput[] {
  return [
    { type: "run-routed", runId, route: "answer", kind, reason: OFFLINE_CANNOT_READ_REASON },
    {
      type: "message-posted",
      messageId: randomUUID(),
      runId,
      role: "agent",
      text: offlineCannotReadText(steps),
    },
    { type: "run-ended", runId, status: "FAILED", reason: OFFLINE_CANNOT_READ_REASON },
  ];
}
