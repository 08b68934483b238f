import { contractTargets } from "@/server/domain/contract/detected-tests";
import type { EventInput } from "@/server/domain/events/schema";
import { summarizeIntent } from "@/server/domain/intent/discovered-intent";
import type { IntentionView, SessionView } from "@/server/domain/session/view";
import type { Plan } from "@/server/model/actions";
import type { ModelCallRecord } from "@/server/model/call-record";
import { correctionEvents } from "../decide/correction-events";
import type { Verdict } from "../decide/heuristics";
import { decisionMade, proposalEvents, statusChanged } from "../decide/run-events";
import type { Step } from "../decide/step";
import { escalatedEvent } from "../decide/tier-events";
import type { RivaDeps } from "../ports";
import { callWithRetries } from "./model-calls";
import { actCarry } from "./reasoning";
import { buildContract, contractEvents, type UnderstandingHost } from "./understanding";

/**
 * Seed 000's planning with the model in it: whether an intention is worked directly or split
 * (can_verify_directly, then the model's plan), and the split should_decompose asks for after direct
 * work failed. A proposed split goes to a person or the auto checkpoint (proposalEvents).
 */

type Split = Extract<Plan, { kind: "decompose" }>;

/** What planning needs of the engine: the understanding steps' host, the folded view, a failed call's record. */
export interface PlanningHost extends UnderstandingHost {
  readonly deps: RivaDeps;
  view(): SessionView;
  modelFailed(intention: IntentionView, stage: "act" | "decompose", error: unknown): Promise<void>;
}

/** The root intention's text: the task every request carries. */
export function rootTaskOf(view: SessionView, runId: string): string {
  const rootId = view.runs[runId]?.rootId;
  return (rootId && view.intentions[rootId]?.what) || "";
}

/** can_verify_directly said yes: work it. Said no: the model proposes a split (or overrules). */
export async function planIntention(
  host: PlanningHost,
  intention: IntentionView,
  verdict: Verdict,
  signal: AbortSignal,
): Promise<void> {
  const { runId } = host;
  const opening: EventInput[] =
    intention.status === "PENDING" ? [statusChanged(runId, intention, "ACTIVE", null)] : [];
  const discovered = host.view().runs[runId]?.intent;
  const repoSummary = discovered ? summarizeIntent(discovered) : undefined;
  if (intention.contract.length === 0) {
    const context = {
      task: rootTaskOf(host.view(), runId),
      codebase: discovered?.codebase,
      repoSummary,
      targets: contractTargets(intention, discovered?.prompt.targets ?? []),
    };
    const contract = await buildContract(host, intention, context, signal);
    opening.push(...contractEvents(runId, intention, contract));
  }
  if (verdict.yes) {
    return host.append([
      ...opening,
      decisionMade(runId, intention, "verify-directly", `can verify directly: ${verdict.reason}`),
    ]);
  }
  if (opening.length > 0) await host.append(opening);
  const planned = await askPlan(host, intention, { task: intention.what, repoSummary }, signal);
  if (!planned) return;
  const { plan, call } = planned;
  if (plan.kind === "decompose")
    return propose(host, intention, call, `cannot verify directly: ${verdict.reason}`, plan);
  const why = `${verdict.reason}, but the model judged it verifiable directly: ${plan.thought}`;
  return host.append([
    host.llmCalled(call, intention.id),
    decisionMade(runId, intention, "verify-directly", why),
  ]);
}

/** should_decompose fired after direct work: split it, or fail it when it cannot be split. */
export async function decomposeIntention(
  host: PlanningHost,
  step: Extract<Step, { kind: "decompose" }>,
  signal: AbortSignal,
): Promise<void> {
  const { intention, trigger, summary, fallback } = step;
  // The discovery summary carries the project's instructions (issue #21.1) into the re-plan too.
  const discovered = host.view().runs[host.runId]?.intent;
  const input = {
    task: intention.what,
    mustDecompose: true,
    failureSummary: `${trigger}\n${summary}`,
    ...(discovered ? { repoSummary: summarizeIntent(discovered) } : {}),
  };
  const planned = await askPlan(host, intention, input, signal);
  if (!planned) return;
  const { plan, call } = planned;
  if (plan.kind === "decompose") return propose(host, intention, call, `should decompose: ${trigger}`, plan);
  if (fallback)
    return host.append([host.llmCalled(call, intention.id), escalatedEvent(host.runId, fallback)]);
  const reason = `${trigger}; it cannot be decomposed further: ${plan.thought}`;
  return host.append([
    host.llmCalled(call, intention.id),
    statusChanged(host.runId, intention, "FAILED", reason),
  ]);
}

/** A proposed split: asked of a person, or approved by the auto checkpoint (see proposalEvents). */
async function propose(
  host: PlanningHost,
  intention: IntentionView,
  call: ModelCallRecord,
  why: string,
  plan: Split,
): Promise<void> {
  const asked = proposalEvents(host.runId, intention, why, plan, await host.checkpoints());
  return host.append([host.llmCalled(call, intention.id), ...asked]);
}

/** Seed 000: a decomposition has 2–5 children. The port is not trusted to have checked. */
async function askPlan(
  host: PlanningHost,
  intention: IntentionView,
  input: Parameters<RivaDeps["model"]["plan"]>[0],
  signal: AbortSignal,
) {
  const record = { ...host.request(), intentionId: intention.id, stage: "decompose" as const };
  const model = host.modelFor(intention);
  const { reasoning } = actCarry(host.view(), host.runId, intention);
  const outcome = await callWithRetries({ ...host.deps, model }, record, signal, () =>
    model.plan({ ...input, request: host.request(), ...(reasoning ? { reasoning } : {}) }, signal),
  );
  const corrections =
    "value" in outcome ? correctionEvents(host.runId, intention.id, outcome.value.call) : [];
  if (outcome.failedAttempts.length + corrections.length > 0)
    await host.append([...outcome.failedAttempts, ...corrections]);
  if ("value" in outcome) return outcome.value;
  await host.modelFailed(intention, "decompose", outcome.error);
  return null;
}
