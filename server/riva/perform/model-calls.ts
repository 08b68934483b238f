import { errorMessage } from "@/server/domain/errors";
import type { EventInput } from "@/server/domain/events/schema";
import type { IntentionView } from "@/server/domain/session/view";
import type { ReasoningSwitch, UserMode } from "@/server/domain/vocabulary/session";
import type { Stage } from "@/server/domain/vocabulary/stages";
import { ModelOutputError } from "@/server/model/errors";
import type { RequestContext } from "@/server/model/request-check";
import { type AttemptReport, classifyModelError, sleep as realSleep, withRetry } from "@/server/model/retry";
import type { AgentModel } from "@/server/model/types";
import { correctionEvents } from "../decide/correction-events";
import { failedCallEvent, statusChanged } from "../decide/run-events";
import type { RivaDeps } from "../ports";

/**
 * A model call under seed 004's retry policy (timeouts 3× at 1/2/4 s, rate limits 5× from 5 s, …).
 * Every failed attempt becomes an `llm-called` event with its error and what happens next, so the log
 * shows a flaky provider instead of hiding it; the final error, if any, is rethrown for the caller.
 */
export async function callWithRetries<T>(
  deps: Pick<RivaDeps, "model" | "sleep">,
  record: {
    runId: string;
    intentionId: string;
    stage: Stage;
    /** The person's mode and switch, recorded on each failed attempt too (seed 001 §9.1). */
    mode?: UserMode;
    reasoning?: ReasoningSwitch;
  },
  signal: AbortSignal,
  call: () => Promise<T>,
  options: { maxAttempts?: number } = {},
): Promise<{ value: T; failedAttempts: EventInput[] } | { error: unknown; failedAttempts: EventInput[] }> {
  const failedAttempts: EventInput[] = [];
  const onAttempt = (report: AttemptReport) => {
    const next = report.plan.retry ? `; retrying in ${Math.round(report.plan.delayMs / 100) / 10} s` : "";
    failedAttempts.push({
      type: "llm-called",
      ...record,
      modelId: deps.model.id,
      offline: deps.model.offline,
      tokensIn: 0,
      tokensOut: 0,
      latencyMs: 0,
      error: `${report.error.errorClass} (attempt ${report.attempt}): ${report.error.message}${next}`,
    });
  };
  const sleep = deps.sleep ?? realSleep;
  try {
    const value = await withRetry(() => call(), {
      classify: (error) => classifyModelError(error),
      sleep,
      onAttempt,
      signal,
      ...options,
    });
    return { value, failedAttempts };
  } catch (error) {
    // The last attempt's record is the caller's: it knows how the failure ends the intention.
    return { error, failedAttempts: failedAttempts.slice(0, -1) };
  }
}

/**
 * A model call that failed for good fails its intention, saying why: the correction the re-ask tried
 * (it was sent even though it did not help), the failed call, and the status. Null when the run is
 * stopping: the loop records that itself.
 */
export function modelFailedEvents(
  request: RequestContext,
  intention: IntentionView,
  stage: "act" | "decompose",
  model: Pick<AgentModel, "id" | "offline">,
  error: unknown,
): EventInput[] | null {
  if (error instanceof Error && error.name === "AbortError") return null;
  const message = errorMessage(error);
  const doing = stage === "act" ? "choose an action" : "plan";
  const tried =
    error instanceof ModelOutputError ? correctionEvents(request.runId, intention.id, error.call) : [];
  return [
    ...tried,
    failedCallEvent({ ...request, intentionId: intention.id, stage }, model, message),
    statusChanged(request.runId, intention, "FAILED", `the model could not ${doing}: ${message}`),
  ];
}
