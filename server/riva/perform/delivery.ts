import { errorMessage } from "@/server/domain/errors";
import type { EventInput } from "@/server/domain/events/schema";
import type { IntentionView, SessionView } from "@/server/domain/session/view";
import { deliveryHeuristic } from "@/server/model/delivery/heuristic";
import type { DeliveryAnswer } from "@/server/model/delivery/types";
import { checkDeliveryOffline, OFFLINE_MODEL_ID } from "@/server/model/offline-model";
import type { RequestContext } from "@/server/model/request-check";
import type { AgentModel } from "@/server/model/types";
import { deliveryInputFor, deliveryVerdict } from "../decide/delivery";
import { failedCallEvent, llmCalledEvent } from "../decide/run-events";
import type { RivaDeps } from "../ports";
import { callWithRetries } from "./model-calls";

/**
 * The engine's side of the delivery check (seed 001 §2.5): once the root settled (after its
 * verification reported and QA, if on, reviewed it), the run's model judges whether the request is
 * delivered, with no tools. Its answer is a `delivery-reported` event with source `delivery_check`;
 * a model that fails is logged as a failed `llm-called` and the heuristic (DONE iff the root
 * verified) answers instead, so the check never fails a run.
 */

export interface DeliveryHost {
  readonly runId: string;
  readonly deps: Pick<RivaDeps, "sleep" | "priceOf" | "logger">;
  view(): SessionView;
  request(): RequestContext;
  modelFor(intention: IntentionView): AgentModel;
  append(bodies: EventInput[]): Promise<void>;
}

function reported(
  runId: string,
  rootStatus: string,
  answer: DeliveryAnswer,
  modelId: string,
  fallback: string | null,
): EventInput {
  const verdict = deliveryVerdict(rootStatus, answer);
  return { type: "delivery-reported", runId, source: "delivery_check", ...verdict, modelId, fallback };
}

export async function checkDelivery(host: DeliveryHost, root: IntentionView, signal: AbortSignal) {
  const request = host.request();
  const model = host.modelFor(root);
  // A model without the check (a test double) gets the offline heuristic, labelled as such.
  const checker = model.checkDelivery ? model : { ...model, id: OFFLINE_MODEL_ID, offline: true };
  const check = model.checkDelivery?.bind(model) ?? checkDeliveryOffline;
  const input = { ...deliveryInputFor(host.view(), root), request };
  const record = { ...request, intentionId: root.id, stage: "delivery_check" as const };
  // The run's outcome is decided (the check is advisory, it never changes it): one attempt, no retries.
  const outcome = await callWithRetries(
    { ...host.deps, model: checker },
    record,
    signal,
    () => check(input, signal),
    { maxAttempts: 1 },
  );
  if ("value" in outcome) {
    const { answer, call } = outcome.value;
    const called = llmCalledEvent(host.runId, root.id, call, host.deps.priceOf, request);
    return host.append([
      ...outcome.failedAttempts,
      called,
      reported(host.runId, root.status, answer, checker.id, null),
    ]);
  }
  if (outcome.error instanceof Error && outcome.error.name === "AbortError") return; // stopping
  const message = errorMessage(outcome.error);
  host.deps.logger.warn({ err: outcome.error, runId: host.runId }, "delivery check failed");
  const fallback = `the model could not answer (${message.slice(0, 300)}); the heuristic answered`;
  await host.append([
    ...outcome.failedAttempts,
    failedCallEvent(record, checker, message),
    reported(host.runId, root.status, deliveryHeuristic(input), OFFLINE_MODEL_ID, fallback),
  ]);
}
