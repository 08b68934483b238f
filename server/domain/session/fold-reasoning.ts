import type { EventOf } from "@/server/domain/events/schema";
import type { ReasoningOutcome } from "@/server/domain/policy/reasoning-outcome";
import type { ReasoningEntry, RunReasoningFields, SessionView } from "@/server/domain/session/view";

/**
 * The fold of the reasoning switch's events (kept out of fold.ts, which folds everything else): the
 * run's warmup and each cycle's reflection, full text for the UI, and the latest compact outcome — the
 * only part of reasoning a later model request of the run receives.
 */

export function noRunReasoning(): RunReasoningFields {
  return { reasoningLog: [], corrections: [] };
}

type ReasoningBody = EventOf<"reasoning-recorded"> | EventOf<"correction-applied">;

export function foldReasoningEvent(view: SessionView, body: ReasoningBody, seq: number): void {
  const run = view.runs[body.runId];
  if (!run) return;
  if (body.type === "correction-applied") {
    const { runId: _run, type: _type, ...entry } = body;
    run.corrections.push({ seq, ...entry });
    return;
  }
  const { runId: _run, type: _type, ...entry } = body;
  run.reasoningLog.push({ seq, ...entry });
}

/** The run's macro warmup, if it had one. */
export function warmupOf(fields: RunReasoningFields): ReasoningEntry | undefined {
  return fields.reasoningLog.find((entry) => entry.kind === "macro");
}

/** The reflection written with the action of one cycle. */
export function reflectionOf(
  fields: RunReasoningFields,
  intentionId: string,
  cycleIndex: number,
): ReasoningEntry | undefined {
  return fields.reasoningLog.findLast(
    (entry) => entry.kind === "micro" && entry.intentionId === intentionId && entry.cycleIndex === cycleIndex,
  );
}

/** What the next model request of the run carries forward: the newest outcome, never a full text. */
export function latestOutcome(fields: RunReasoningFields): ReasoningOutcome | null {
  return fields.reasoningLog.at(-1)?.outcome ?? null;
}
