/**
 * The model port: the only way the orchestrator talks to a language model. Two implementations sit
 * behind it — the built-in offline heuristics and an AI SDK provider — so the loop never knows which.
 */

/** A proposed child intention: a smaller goal plus how we will know it is done. */
export interface ChildProposal {
  what: string;
  acceptance: string;
  /** owned_scope globs for the child's writes (relative to /workspace); none: its writes ask. */
  ownedScope?: string[];
}

/**
 * The answer to "can this intention be verified directly?" (seed 000's `can_verify_directly`): either
 * work it through action cycles, or split it into 2–5 children that are each easier to verify.
 */
export type Plan =
  | { kind: "direct"; thought: string }
  | { kind: "decompose"; thought: string; children: ChildProposal[] }
  /** Only when decomposition was required: the intention is already as small as it gets. */
  | { kind: "atomic"; thought: string };

export interface PlanInput {
  /** The intention to plan: its goal in words. */
  task: string;
  repoSummary?: string;
  /**
   * Set when the engine has already decided to decompose (after failures, a vague acceptance, …):
   * working directly is not an option, only splitting or saying it cannot be split.
   */
  mustDecompose?: boolean;
  /** Why decomposition is required and what failed so far (capped by the caller). */
  failureSummary?: string;
}

/** One shell command to run in the session's sandbox, with the reasoning shown to the user. */
export interface NextAction {
  thought: string;
  command: string;
}

/** What one model request cost, written to the event log as an "LLM call made" fact. */
export interface ModelCallRecord {
  stage: "decompose" | "act";
  modelId: string;
  offline: boolean;
  tokensIn: number;
  tokensOut: number;
  latencyMs: number;
}

export interface AgentModel {
  /** Stable identifier recorded with every call, e.g. "offline-heuristics" or "openai-compatible:gpt-4o-mini". */
  readonly id: string;
  /** Human label for the UI, e.g. "Built-in offline model (heuristics)". */
  readonly label: string;
  readonly offline: boolean;
  plan(input: PlanInput, signal?: AbortSignal): Promise<{ plan: Plan; call: ModelCallRecord }>;
  nextAction(
    input: { task: string; what: string; acceptance: string; previousAttempts: string[] },
    signal?: AbortSignal,
  ): Promise<{ action: NextAction; call: ModelCallRecord }>;
}

export { ModelError, ModelOutputError, ModelRequestError, ModelUnavailableError } from "./errors";
