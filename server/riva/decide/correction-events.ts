import type { EventInput } from "@/server/domain/events/schema";
import type { ModelCallRecord } from "@/server/model/call-record";
import type { CorrectionNote } from "@/server/model/corrections";

/**
 * The `correction-applied` events for a model call whose output had to be corrected (a retried tool
 * input, a re-asked question): one per correction note. Only builds event bodies; shared by the
 * engine, the reasoning step and the model-call retries.
 */
export function correctionEvents(
  runId: string,
  intentionId: string | null,
  call: Pick<ModelCallRecord, "stage" | "corrections">,
): EventInput[] {
  return (call.corrections ?? []).map((note: CorrectionNote) => ({
    type: "correction-applied",
    runId,
    intentionId,
    stage: call.stage,
    kind: note.kind,
    prompt: note.prompt,
    problem: note.problem,
  }));
}
