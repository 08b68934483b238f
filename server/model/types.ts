import type { QaReport } from "@/server/domain/events/bodies/qa";
import type { PromptIntent } from "@/server/domain/intent/prompt-intent";
import type { NextAction, Plan } from "./actions";
import type { AnswerStepOutcome, AnswerStepRequest } from "./answer-step";
import type { ModelCallRecord } from "./call-record";
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
import type { ModelContract } from "./understanding-tools";

/**
 * The model port: the only way the orchestrator talks to a language model. Two implementations sit
 * behind it — the built-in offline heuristics and an AI SDK provider — so the loop never knows which.
 */

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
/**
 * A tool offered next to the catalogue's, known only at run time: a project's MCP tool (registry name
 * `mcp__<server>__<tool>`, also its function name), with its server's description and JSON Schema.
 */
export interface ExtraToolManual {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface ActInput {
  task: string;
  what: string;
  acceptance: string;
  previousAttempts: string[];
  /** The run's mode and reasoning switch, for the request invariants and the log (seed 001 §9). */
  request?: RequestContext;
  /** The repository now: branch, changed files, last commits (`server/riva/perform/repo-context.ts`). */
  repoContext?: string;
  /**
   * The request's context built from the store (server/riva/decide/act-context.ts): the root → current
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
  /** The project's MCP tools the act stage offers (the project's choice per server); absent: none. */
  extraTools?: ExtraToolManual[];
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
