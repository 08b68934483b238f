import { randomUUID } from "node:crypto";
import type { EventInput } from "@/server/domain/events/schema";
import type { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import type { IntentionView, SessionView } from "@/server/domain/session/view";
import { fitText, MAX_STEP_CHARS } from "@/server/domain/text/fit-text";
import type { Plan } from "@/server/model/actions";
import type { ModelCallRecord } from "@/server/model/call-record";
import type { Pricer } from "@/server/model/pricing";
import type { RequestContext } from "@/server/model/request-check";
import { AUTO_DECIDER_ID } from "./check-approvals";
import { childIntentions } from "./children";

/** The engine's event builders: pure, so what a decision writes can be read (and tested) in one place. */

const MIN_CHILDREN = 2;
const MAX_CHILDREN = 5;

export type Settled = "ACTIVE" | "VERIFIED" | "FAILED";
export type Decision = "verify-directly" | "decompose" | "retry";

export function statusChanged(
  runId: string,
  intention: Pick<IntentionView, "id">,
  status: Settled,
  reason: string | null,
): EventInput {
  return { type: "intention-status-changed", runId, intentionId: intention.id, status, reason };
}

export function decisionMade(
  runId: string,
  intention: Pick<IntentionView, "id">,
  decision: Decision,
  reason: string,
): EventInput {
  return { type: "decision-made", runId, intentionId: intention.id, decision, reason };
}

/** A model call that failed for good: recorded with its error and no spend. */
export function failedCallEvent(
  request: RequestContext & { intentionId: string; stage: string },
  model: { id: string; offline: boolean },
  error: string,
): EventInput {
  const spend = { tokensIn: 0, tokensOut: 0, latencyMs: 0 };
  return { type: "llm-called", ...request, modelId: model.id, offline: model.offline, ...spend, error };
}

/** The run spent its budget: a person grants the same again, or stops the run. */
export function budgetQuestion(runId: string, root: Pick<IntentionView, "id">, spent: string): EventInput {
  const thought = `The run has spent ${spent}. Grant the same budget again, or stop the run.`;
  const approvalId = randomUUID();
  return {
    type: "approval-requested",
    runId,
    approvalId,
    intentionId: root.id,
    kind: "budget",
    thought,
    reason: spent,
  };
}

/** A cycle the server stopped in the middle of: judged UNCLEAR, so the intention tries again. */
export function interruptedCycleEvents(runId: string, intentionId: string, cycleId: string): EventInput[] {
  const cycle = { runId, intentionId, cycleId };
  return [
    {
      type: "cycle-result",
      ...cycle,
      exitCode: null,
      output: "(interrupted: the server stopped while this action ran; it will be tried again)",
      timedOut: false,
      error: null,
      durationMs: 0,
      interrupted: true,
    },
    {
      type: "cycle-judged",
      ...cycle,
      judgment: "UNCLEAR",
      judgedBy: "auto",
      reason: "interrupted before its result was recorded",
    },
  ];
}

export function llmCalledEvent(
  runId: string,
  intentionId: string | null,
  call: ModelCallRecord,
  priceOf?: Pricer,
  request?: Pick<RequestContext, "mode" | "reasoning">,
): EventInput {
  const costUsd = priceOf?.(call) ?? (call.offline ? 0 : null);
  // Corrections are their own events (`correction-applied`, see perform/reasoning.ts).
  const { corrections: _corrections, ...fields } = call;
  const tools = call.tools ?? [];
  return {
    type: "llm-called",
    runId,
    intentionId,
    ...fields,
    tools,
    toolCount: tools.length,
    ...(request ? { mode: request.mode, reasoning: request.reasoning } : {}),
    error: null,
    costUsd,
  };
}

/**
 * A proposed decomposition: seed 000's 2–5 children (the model port is not trusted to have checked),
 * asked of a person, or approved by the auto checkpoint when the project says so — recorded as such.
 */
export function proposalEvents(
  runId: string,
  intention: IntentionView,
  reason: string,
  plan: Extract<Plan, { kind: "decompose" }>,
  policy: CheckpointPolicy,
): EventInput[] {
  const count = plan.children.length;
  if (count < MIN_CHILDREN || count > MAX_CHILDREN) {
    const why = `the model proposed ${count} children; a decomposition needs ${MIN_CHILDREN} to ${MAX_CHILDREN}`;
    return [
      decisionMade(runId, intention, "decompose", reason),
      statusChanged(runId, intention, "FAILED", why),
    ];
  }
  const approvalId = randomUUID();
  const request: EventInput = {
    type: "approval-requested",
    runId,
    approvalId,
    intentionId: intention.id,
    kind: "decomposition",
    children: fitChildren(plan.children),
    thought: plan.thought,
  };
  if (policy.decompositions === "ask") return [decisionMade(runId, intention, "decompose", reason), request];
  // The project lets the auto checkpoint approve decompositions: recorded as such, never silently.
  return [
    decisionMade(runId, intention, "decompose", reason),
    request,
    {
      type: "approval-decided",
      runId,
      approvalId,
      decision: "approved",
      decidedBy: { userId: AUTO_DECIDER_ID, name: "auto checkpoint" },
      reason: "this project approves decompositions automatically",
    },
    ...childIntentions(runId, intention, fitChildren(plan.children)),
  ];
}

/**
 * A child's step and acceptance have caps (a person reads them on the decomposition card); a model or
 * the offline splitter may propose longer ones from a long task. They are summarised, never refused.
 */
function fitChildren(children: Extract<Plan, { kind: "decompose" }>["children"]) {
  return children.map((child) => ({
    ...child,
    what: fitText(child.what, MAX_STEP_CHARS),
    acceptance: fitText(child.acceptance, MAX_STEP_CHARS),
  }));
}

/**
 * The end of a run: every intention still ACTIVE fails with the run's reason (deepest first, so none
 * is left open), then the run ends and the agent says so in the chat.
 */
export function runEndedEvents(
  view: Pick<SessionView, "intentions">,
  runId: string,
  status: "VERIFIED" | "FAILED" | "STOPPED",
  reason: string,
): EventInput[] {
  const events: EventInput[] = Object.values(view.intentions)
    .filter((intention) => intention.runId === runId && intention.status === "ACTIVE")
    .sort((a, b) => b.depth - a.depth)
    .map((intention) => statusChanged(runId, intention, "FAILED", reason));
  const label = status === "VERIFIED" ? "Verified" : status === "STOPPED" ? "Stopped" : "Failed";
  events.push(
    { type: "run-ended", runId, status, reason },
    { type: "message-posted", messageId: randomUUID(), runId, role: "agent", text: `${label}: ${reason}` },
  );
  return events;
}
