import { randomUUID } from "node:crypto";
import { errorMessage } from "@/server/domain/errors";
import type { EventInput } from "@/server/domain/events/schema";
import type { IntentionView, SessionView } from "@/server/domain/session/view";
import { capEndCounted } from "@/server/domain/text/cap";
import { isReadOnlyTool } from "@/server/domain/tools/catalogue";
import { createOfflineModel, reviewWithHeuristics } from "@/server/model/offline-model";
import type { RequestContext } from "@/server/model/request-check";
import type { AgentModel, ReadPort } from "@/server/model/types";
import { stagePolicy } from "@/server/policy/stages/policy";
import { resultText, type ToolDispatch } from "@/server/tools/dispatch";
import { qaInputFor } from "../decide/qa";
import { failedCallEvent, llmCalledEvent } from "../decide/run-events";
import { describeCall } from "../decide/tool-action";
import type { RivaDeps } from "../ports";
import { callWithRetries } from "./model-calls";

/**
 * The engine's side of advisory QA (seed 001 §2.3): one read-only review of an intention, recorded as
 * a `qa-reported` event on it. The reviewer reads through the one dispatch, limited to the stage
 * policy's read-only tools; nothing it returns touches a status, the answer or the delivery gate. A
 * review that fails is recorded (report null, with the error) and the run goes on: QA only advises.
 */

export interface QaHost {
  readonly runId: string;
  readonly tools: ToolDispatch;
  readonly deps: Pick<RivaDeps, "sleep" | "priceOf" | "logger">;
  view(): SessionView;
  request(): RequestContext;
  modelFor(intention: IntentionView): AgentModel;
  append(bodies: EventInput[]): Promise<void>;
}

/** Reads one review may make, and what it is shown of each. */
const MAX_QA_READS = 8;
const MAX_QA_READ_CHARS = 24_000;

/** Read-only tools of the stage policy only; each call goes through the dispatch and is remembered. */
export function qaReadPort(
  tools: ToolDispatch,
  allowed: readonly string[],
  made: string[],
  signal: AbortSignal,
): ReadPort {
  return {
    maxReads: MAX_QA_READS,
    async run(call) {
      // Checked here as well as in the model code: whatever a model class does, no write gets through;
      // and no active intent, so even a write that slipped past would meet the intent gate's refusal.
      if (!allowed.includes(call.tool) || !isReadOnlyTool(call.tool))
        return `${call.tool} is not available in a review: it is read-only.`;
      if (made.length >= MAX_QA_READS) return "No reads left in this review.";
      made.push(describeCall({ tool: call.tool, input: (call.input ?? {}) as Record<string, unknown> }));
      const text = resultText(await tools.run(call, { activeIntent: null, signal }));
      return capEndCounted(text || "(no output)", MAX_QA_READ_CHARS);
    },
  };
}

const OFFLINE = createOfflineModel();

export async function reviewIntention(
  host: QaHost,
  intention: IntentionView,
  signal: AbortSignal,
): Promise<void> {
  const request = host.request();
  const allowed = stagePolicy("qa_review", request.mode, request.reasoning).tools;
  const made: string[] = [];
  const reads = qaReadPort(host.tools, allowed, made, signal);
  const model = host.modelFor(intention);
  // A model without a reviewer (a test double) gets the offline heuristics, labelled as such.
  const reviewer = model.review ? model : OFFLINE;
  const review = model.review?.bind(model) ?? reviewWithHeuristics;
  const input = { ...qaInputFor(host.view(), intention), request };
  const record = { ...request, intentionId: intention.id, stage: "qa_review" as const };
  const outcome = await callWithRetries({ ...host.deps, model: reviewer }, record, signal, () =>
    review(input, signal, reads),
  );
  const base = {
    type: "qa-reported" as const,
    runId: host.runId,
    intentionId: intention.id,
    reviewId: randomUUID(),
    modelId: reviewer.id,
    offline: reviewer.offline,
    tools: [...allowed],
    reads: made.slice(0, 20),
  };
  if ("value" in outcome) {
    const { report, call } = outcome.value;
    const called = llmCalledEvent(host.runId, intention.id, call, host.deps.priceOf, request);
    return host.append([...outcome.failedAttempts, called, { ...base, report, error: null }]);
  }
  if (outcome.error instanceof Error && outcome.error.name === "AbortError") return; // stopping
  const message = errorMessage(outcome.error);
  host.deps.logger.warn({ err: outcome.error, runId: host.runId }, "QA review failed");
  const failedCall = failedCallEvent(record, reviewer, message);
  await host.append([...outcome.failedAttempts, failedCall, { ...base, report: null, error: message }]);
}

export { qaNotesFor } from "../decide/qa";
export { checkDelivery } from "./delivery";

/** The root's verification, reported into the run's delivery gate (the authoritative source). */
export function deliveryReported(runId: string, state: "DONE" | "NEEDS_WORK", reason: string): EventInput {
  return { type: "delivery-reported", runId, state, source: "verification", reason };
}
