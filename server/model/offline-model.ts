import type { QaReport } from "@/server/domain/events/bodies/qa";
import { estimateTokens } from "@/server/domain/text/tokens";
import { commandAction, type NextAction, type Plan } from "./actions";
import type { ModelCallRecord } from "./call-record";
import { deliveryHeuristic } from "./delivery/heuristic";
import type { DeliveryAnswer, DeliveryCheckInput } from "./delivery/types";
import { deriveCommand } from "./heuristics/derive-command";
import { deriveFileAction } from "./heuristics/derive-file-action";
import { deriveOwnedScope } from "./heuristics/derive-scope";
import { offlineReviewDiff, reviewOffline } from "./heuristics/offline-qa";
import { deriveAcceptance, splitTask } from "./heuristics/split-task";
import { offlineReflectionText, offlineWarmupText } from "./reasoning/offline-reasoning";
import type { AgentModel, QaInput, ReadPort } from "./types";

export const OFFLINE_MODEL_ID = "offline-heuristics";

function record(
  stage: ModelCallRecord["stage"],
  input: string,
  output: string,
  startedAt: number,
): ModelCallRecord {
  return {
    stage,
    modelId: OFFLINE_MODEL_ID,
    offline: true,
    tokensIn: estimateTokens(input),
    tokensOut: estimateTokens(output),
    latencyMs: Math.max(0, performance.now() - startedAt),
    // What the step stands for, like the AI SDK model's requests: acting means a command, a review reads.
    tools:
      stage === "act" ? ["shell.exec"] : stage === "qa_review" ? ["git.status", "git.diff", "fs.read"] : [],
  };
}

export function planOffline(task: string): Plan {
  const parts = splitTask(task);
  if (parts.length < 2) {
    return { kind: "direct", thought: "This is a single step with no compound structure: work it directly." };
  }
  return {
    kind: "decompose",
    thought: `This request has ${parts.length} separate steps (joined by "and", "then", a list or several lines); each is verified on its own.`,
    children: parts.map((part) => ({
      what: part,
      acceptance: deriveAcceptance(part),
      ownedScope: deriveOwnedScope(part),
    })),
  };
}

/** An explicit file instruction becomes fs.write / fs.edit / fs.delete; anything else a command. */
export function nextActionOffline(what: string, previousAttempts: readonly string[]): NextAction {
  const retry =
    previousAttempts.length > 0
      ? ` (attempt ${previousAttempts.length + 1}; the heuristics are deterministic)`
      : "";
  const file = deriveFileAction(what);
  if (file) return { thought: `${file.thought}${retry}`, tool: file.tool, input: file.input };
  const derived = deriveCommand(what);
  return commandAction(`${derived.thought}${retry}`, derived.command);
}

/** The warmup's six sections from the heuristics (also the engine's fallback for scripted models). */
export function offlineWarmup(task: string, repoSummary?: string) {
  const startedAt = performance.now();
  const first = splitTask(task)[0] ?? task;
  const text = offlineWarmupText(task, nextActionOffline(first, []), repoSummary);
  return { text, call: record("warmup", task + (repoSummary ?? ""), text, startedAt) };
}

/** The offline advisory review: the diff and new files read through `reads`, judged by heuristics. */
export async function reviewWithHeuristics(
  input: QaInput,
  signal?: AbortSignal,
  reads?: ReadPort,
): Promise<{ report: QaReport; call: ModelCallRecord }> {
  signal?.throwIfAborted();
  const startedAt = performance.now();
  const diff = reads ? await offlineReviewDiff(reads) : "";
  const report = reviewOffline(input, diff);
  const prompt = [input.task, input.what, input.outcome, ...input.work, diff].join("\n");
  return { report, call: record("qa_review", prompt, JSON.stringify(report), startedAt) };
}

/** The offline delivery check: delivered iff the root verified (also the fallback of a failed model). */
export async function checkDeliveryOffline(
  input: DeliveryCheckInput,
  signal?: AbortSignal,
): Promise<{ answer: DeliveryAnswer; call: ModelCallRecord }> {
  signal?.throwIfAborted();
  const startedAt = performance.now();
  const answer = deliveryHeuristic(input);
  const prompt = [input.task, ...input.outcome, ...input.qa].join("\n");
  return { answer, call: record("delivery_check", prompt, JSON.stringify(answer), startedAt) };
}

/**
 * The built-in model used when no provider is configured: seed 000's heuristics, pure and
 * deterministic, so a fresh install works end to end without any network.
 */
export function createOfflineModel(): AgentModel {
  return {
    id: OFFLINE_MODEL_ID,
    label: "Built-in offline model (heuristics)",
    offline: true,
    async plan(input, signal) {
      signal?.throwIfAborted();
      const startedAt = performance.now();
      const planned = planOffline(input.task);
      // A required split that the heuristics cannot make: the step is as small as they can get it.
      const plan: Plan =
        input.mustDecompose && planned.kind === "direct"
          ? { kind: "atomic", thought: "The heuristics find no smaller steps in this intention." }
          : planned;
      return {
        plan,
        call: record("decompose", input.task + (input.repoSummary ?? ""), JSON.stringify(plan), startedAt),
      };
    },
    async nextAction(input, signal) {
      signal?.throwIfAborted();
      const startedAt = performance.now();
      const action = nextActionOffline(input.what, input.previousAttempts);
      const prompt = [input.task, input.what, input.acceptance, ...input.previousAttempts].join("\n");
      const call = record("act", prompt, JSON.stringify(action), startedAt);
      // Reasoning on: the step's short reflection, written from the same heuristics that chose it.
      if (input.request?.reasoning !== "on") return { action, call };
      return { action, call, reasoning: offlineReflectionText(input.what, input.previousAttempts, action) };
    },
    async warmup(input, signal) {
      signal?.throwIfAborted();
      return offlineWarmup(input.task, input.repoSummary);
    },
    review: reviewWithHeuristics,
    checkDelivery: checkDeliveryOffline,
  };
}
