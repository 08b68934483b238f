import type { QaReport } from "@/server/events/bodies/qa";
import type { Stage } from "@/server/policy/stages/vocabulary";
import type { PromptIntent } from "@/server/riva/discovery/prompt-intent";
import type { AnswerStepOutcome, AnswerStepRequest } from "./answer-step";
import type { CorrectionNote } from "./corrections";
import type { DeliveryAnswer, DeliveryCheckInput } from "./delivery/types";
import type { ReasoningCarry, WarmupInput, WarmupResult } from "./reasoning/types";
import type { RequestContext } from "./request-check";
import type {
  AdversarialTest,
  ChaosInput,
  CriticInput,
  LibrarianInput,
  Ranking,
  Review,
} from "./roles/types";
import type { Role } from "./tiers/schema";
import type { ModelContract } from "./understanding-tools";

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
  /** The run's mode and reasoning switch, for the request invariants and the log (seed 001 §9). */
  request?: RequestContext;
  /** Reasoning on: the run's latest compact ReasoningOutcome (never the full text, seed 001 §4.3). */
  reasoning?: ReasoningCarry;
}

/**
 * The cycle's action: one call of a registry tool (`fs.write`, `fs.edit`, `shell.exec`, …), with the
 * reasoning shown to the user. `input` is the model's raw arguments: the tool dispatch parses them with
 * the tool's zod schema before anything runs, so nothing here is trusted.
 */
export interface NextAction {
  thought: string;
  tool: string;
  input: Record<string, unknown>;
}

/** The action of running one shell command (what the act step could only do before tool calls). */
export function commandAction(thought: string, command: string): NextAction {
  return { thought, tool: "shell.exec", input: { command } };
}

/**
 * Read-only tool calls a model may make inside its act turn before choosing the action (seed 001's
 * micro-step). The engine runs each through the tool dispatch and records it; the model reads the
 * answer in the same turn. `run` never throws: a refused or failed read comes back as text.
 */
export interface ReadPort {
  /** How many reads one act turn may make; the model is told when it has used them up. */
  readonly maxReads: number;
  run(call: { tool: string; input: unknown }): Promise<string>;
}

/** What the act step is given: the intention, its acceptance and what earlier attempts taught. */
export interface ActInput {
  task: string;
  what: string;
  acceptance: string;
  previousAttempts: string[];
  /** The run's mode and reasoning switch, for the request invariants and the log (seed 001 §9). */
  request?: RequestContext;
  /** The repository now: branch, changed files, last commits (`server/riva/repo-context.ts`). */
  repoContext?: string;
  /**
   * The request's context built from the store (server/riva/act-context.ts): the root → current
   * chain, the contract, the repository, verified parts, capped earlier attempts and restored items.
   * The act prompt sends it instead of `acceptance`, `previousAttempts` and `repoContext`.
   */
  context?: string;
  /** Reasoning on: the run's latest compact ReasoningOutcome (never the full text, seed 001 §4.3). */
  reasoning?: ReasoningCarry;
  /** The previous attempt's tool failed: the retry is told so with its own correction prompt. */
  failedTool?: { tool: string; error: string } | null;
  /** Full mode: the files the Librarian ranked, as read for this request (absent in simple mode). */
  rankedFiles?: string;
  /** "QA said": capped advisory findings on earlier work, when the project feeds QA back (else absent). */
  qaNotes?: string;
}

/** Seed 000's IntentDiscoverer: the person's request, read by the model (heuristics read it offline). */
export interface DiscoverInput {
  prompt: string;
  /** What listing the workspace found (languages, tests, related files), in short. */
  repoSummary?: string;
  request?: RequestContext;
}

/** Seed 000's ContractBuilder: the checks that will prove an intention done, before work starts. */
export interface ContractInput {
  /** The run's whole task, for context. */
  task: string;
  what: string;
  acceptance: string;
  repoSummary?: string;
  request?: RequestContext;
}

/**
 * What the advisory reviewer is given (seed 001 §2.3): the work to review and how it was checked. It
 * may read the workspace through `reads` (read-only tools only); it has no way to change anything.
 */
export interface QaInput {
  /** The user's request (the run's root intention). */
  task: string;
  /** The intention under review, its acceptance, and how it ended (status and reason). */
  what: string;
  acceptance: string;
  outcome: string;
  /** One line per cycle: the action, its judgment and why; then the contract checks. */
  work: string[];
  /** The same facts counted, for heuristics: cycles, misses, and the contract as last checked. */
  attempts: { total: number; missed: number };
  criteria: { total: number; passed: number };
  request?: RequestContext;
}

/** What one model request cost, written to the event log as an "LLM call made" fact. */
export interface ModelCallRecord {
  stage: Stage | "discover";
  modelId: string;
  offline: boolean;
  tokensIn: number;
  tokensOut: number;
  latencyMs: number;
  /** The workspace tools the request offered, by vocabulary name (`shell.exec`, `fs.read`). */
  tools?: string[];
  /** Correction prompts sent with re-asks or retries of this call (seed 001 §10), in order. */
  corrections?: CorrectionNote[];
  /** Full mode's helper role that made the call (absent: the Artisan, or no role). */
  role?: Role;
}

export interface AgentModel {
  /** Stable identifier recorded with every call, e.g. "offline-heuristics" or "openai-compatible:gpt-4o-mini". */
  readonly id: string;
  /** Human label for the UI, e.g. "Built-in offline model (heuristics)". */
  readonly label: string;
  readonly offline: boolean;
  plan(input: PlanInput, signal?: AbortSignal): Promise<{ plan: Plan; call: ModelCallRecord }>;
  nextAction(
    input: ActInput,
    signal?: AbortSignal,
    reads?: ReadPort,
  ): Promise<{ action: NextAction; call: ModelCallRecord; reasoning?: string }>;
  /**
   * Reasoning on: the macro warmup on the user's message (seed 001 §4.1); its research may read the
   * workspace through `reads` (a few read-only calls). Absent on scripted test models: the engine
   * then uses the offline heuristics' warmup.
   */
  warmup?(input: WarmupInput, signal?: AbortSignal, reads?: ReadPort): Promise<WarmupResult>;
  /** Reads the person's request (kind, action, targets, constraints). Absent: heuristics read it. */
  discoverIntent?(
    input: DiscoverInput,
    signal?: AbortSignal,
  ): Promise<{ intent: PromptIntent; call: ModelCallRecord }>;
  /** Writes an intention's checks when its acceptance names none. Absent: the exit code decides. */
  buildContract?(
    input: ContractInput,
    signal?: AbortSignal,
  ): Promise<{ contract: ModelContract; call: ModelCallRecord }>;
  /**
   * The advisory QA review (stage `qa_review`): a structured report, never an edit. Absent on models
   * without it (test doubles): the engine then uses the offline heuristics of `offline-qa.ts`.
   */
  review?(
    input: QaInput,
    signal?: AbortSignal,
    reads?: ReadPort,
  ): Promise<{ report: QaReport; call: ModelCallRecord }>;
  /**
   * The delivery check (stage `delivery_check`): is the request delivered? No workspace tools. Absent
   * on test doubles: the engine then uses the offline heuristic (DONE iff the root verified).
   */
  checkDelivery?(
    input: DeliveryCheckInput,
    signal?: AbortSignal,
  ): Promise<{ answer: DeliveryAnswer; call: ModelCallRecord }>;
  /**
   * One request of the answer path (read-only tools or a text answer, streamed). Absent on the
   * offline model, which has no language ability: the answer path then uses its heuristics.
   */
  answerStep?(
    request: AnswerStepRequest,
    signal?: AbortSignal,
  ): Promise<AnswerStepOutcome & { call: ModelCallRecord }>;
  /** Full mode's Librarian: the files an intention needs, ranked. Absent: the offline heuristics. */
  rankFiles?(
    input: LibrarianInput,
    signal?: AbortSignal,
  ): Promise<{ ranking: Ranking; call: ModelCallRecord }>;
  /** Full mode's Critic: a review of the Artisan's change before a person sees it. */
  critique?(input: CriticInput, signal?: AbortSignal): Promise<{ review: Review; call: ModelCallRecord }>;
  /** Full mode's optional Chaos role: one adversarial test. */
  adversarialTest?(
    input: ChaosInput,
    signal?: AbortSignal,
  ): Promise<{ test: AdversarialTest; call: ModelCallRecord }>;
}
