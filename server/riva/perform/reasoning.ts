import { randomUUID } from "node:crypto";
import { errorMessage } from "@/server/domain/errors";
import { MAX_REASONING_CHARS, type ReasoningKind } from "@/server/domain/events/bodies/reasoning";
import type { EventInput } from "@/server/domain/events/schema";
import { summarizeIntent } from "@/server/domain/intent/discovered-intent";
import { compactReasoning, type ReasoningOutcome } from "@/server/domain/policy/reasoning-outcome";
import { latestOutcome } from "@/server/domain/session/fold-reasoning";
import type { IntentionView, SessionView } from "@/server/domain/session/view";
import { capEnd } from "@/server/domain/text/cap";
import type { ModelCallRecord } from "@/server/model/call-record";
import { offlineWarmup } from "@/server/model/offline-model";
import type { RequestContext } from "@/server/model/request-check";
import type { ActInput, AgentModel, ReadPort } from "@/server/model/types";
import { correctionEvents } from "../decide/correction-events";
import { failedCallEvent, llmCalledEvent } from "../decide/run-events";
import { modelFor } from "../decide/tier-events";
import type { RivaDeps } from "../ports";
import { callWithRetries } from "./model-calls";

/**
 * The person's reasoning switch in the loop (seed 001 §4) and the retry's correction after a failed
 * tool (§10.3). The warmup runs once per run, after discovery and before anything is planned; every
 * act turn afterwards carries only the newest compact ReasoningOutcome, and its reflection is stored
 * in full for the UI. With the switch off none of this happens: no warmup, no outcome, no reflection.
 */

export interface ReasoningHost {
  readonly runId: string;
  readonly deps: Pick<RivaDeps, "model" | "tiers" | "sleep" | "priceOf">;
  view(): SessionView;
  request(): RequestContext;
  append(bodies: EventInput[]): Promise<void>;
}

export function reasoningEvent(
  runId: string,
  where: { intentionId: string | null; cycleIndex?: number | null },
  kind: ReasoningKind,
  text: string,
  model: Pick<AgentModel, "id" | "offline">,
  outcome: ReasoningOutcome = compactReasoning(text),
): EventInput {
  return {
    type: "reasoning-recorded",
    runId,
    intentionId: where.intentionId,
    cycleIndex: where.cycleIndex ?? null,
    kind,
    text: capEnd(text.trim(), MAX_REASONING_CHARS),
    outcome,
    modelId: model.id,
    offline: model.offline,
  };
}

/** Seed 001 §4.1's research looks, it does not explore: a few reads, then the plan. */
export const MAX_WARMUP_READS = 4;

/** The same port with fewer reads: past the cap a read is refused in words and never dispatched. */
export function cappedReads(reads: ReadPort, max: number): ReadPort {
  let made = 0;
  return {
    maxReads: Math.min(max, reads.maxReads),
    run(call) {
      if (made >= Math.min(max, reads.maxReads))
        return Promise.resolve("No reads left in the warmup: write your reasoning now.");
      made += 1;
      return reads.run(call);
    },
  };
}

/** Seed 001 §4.1: the macro warmup on the run's message, stored in full with its compact outcome. */
export async function warmUp(
  host: ReasoningHost,
  root: IntentionView,
  signal: AbortSignal,
  /** The act step's read port (each read logged as `tool-called`); capped here at MAX_WARMUP_READS. */
  reads?: ReadPort,
): Promise<void> {
  const run = host.view().runs[host.runId];
  const repoSummary = run?.intent ? summarizeIntent(run.intent) : undefined;
  const model = modelFor(host.deps, root);
  const request = host.request();
  const input = { task: root.what, ...(repoSummary ? { repoSummary } : {}), request };
  const record = { ...request, intentionId: root.id, stage: "warmup" as const };
  // A scripted test model without a warmup of its own gets the offline heuristics' one.
  const port = reads ? cappedReads(reads, MAX_WARMUP_READS) : undefined;
  const warm = () =>
    model.warmup ? model.warmup(input, signal, port) : Promise.resolve(offlineWarmup(root.what));
  const outcome = await callWithRetries({ ...host.deps, model }, record, signal, warm);
  if (outcome.failedAttempts.length > 0) await host.append(outcome.failedAttempts);
  const where = { intentionId: root.id };
  if ("value" in outcome) {
    const { text, call } = outcome.value;
    const written = text.trim() === "" ? "(the model wrote no warmup)" : text;
    // Seed 001 §4.1: the warmup ends with a short statement of next steps, which the person reads in chat.
    const statement = capEnd(written.replace(/^[\s\S]*<\/ide_reasoning>/, "").trim(), 2_000);
    return host.append([
      llmCalledEvent(host.runId, root.id, call, host.deps.priceOf, request),
      reasoningEvent(host.runId, where, "macro", written, model),
      ...(statement && written.includes("</ide_reasoning>")
        ? [
            {
              type: "message-posted" as const,
              messageId: randomUUID(),
              runId: host.runId,
              role: "agent" as const,
              text: statement,
            },
          ]
        : []),
    ]);
  }
  if (outcome.error instanceof Error && outcome.error.name === "AbortError") return;
  // The run goes on without a plan rather than stopping: the failure is shown where the warmup would be.
  const message = capEnd(errorMessage(outcome.error), 180);
  const failed = { plan_delta: "", next_action: "", known_risks: `warmup failed: ${message}` };
  return host.append([
    failedCallEvent({ ...request, intentionId: root.id, stage: "warmup" }, model, message),
    reasoningEvent(host.runId, where, "macro", `The warmup could not be written: ${message}`, model, {
      ...failed,
      delivery_state: "NEEDS_WORK",
    }),
  ]);
}

/** What an act turn carries: the newest outcome (reasoning on), and the last attempt's tool failure. */
export function actCarry(
  view: SessionView,
  runId: string,
  intention: IntentionView,
): Pick<ActInput, "reasoning" | "failedTool"> {
  const run = view.runs[runId];
  const outcome = run?.reasoning === "on" ? latestOutcome(run) : null;
  const last = intention.cycles.at(-1);
  const failedTool =
    last?.judgment === "FAILURE"
      ? {
          tool: last.action.tool ?? "shell.exec",
          error: [
            last.error ?? `exit code ${last.exitCode ?? "none"}${last.timedOut ? " (timed out)" : ""}`,
            last.output ? `output (end): ${last.output.slice(-800)}` : "",
            last.judgmentReason ? `judged: ${last.judgmentReason}` : "",
          ]
            .filter((part) => part !== "")
            .join("\n"),
        }
      : null;
  return { ...(outcome ? { reasoning: outcome } : {}), failedTool };
}

/** After an act turn: its reflection (reasoning on only) and the corrections it sent. */
export function afterActEvents(
  host: Pick<ReasoningHost, "runId" | "request">,
  intention: IntentionView,
  asked: { call: ModelCallRecord; reasoning?: string },
  model: Pick<AgentModel, "id" | "offline">,
): EventInput[] {
  const events = correctionEvents(host.runId, intention.id, asked.call);
  if (host.request().reasoning === "on" && asked.reasoning?.trim()) {
    const where = { intentionId: intention.id, cycleIndex: intention.cycles.length };
    events.push(reasoningEvent(host.runId, where, "micro", asked.reasoning, model));
  }
  return events;
}
