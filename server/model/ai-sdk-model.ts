import "server-only";
import type { LanguageModel, ModelMessage, ToolSet } from "ai";
import type { ToolName } from "@/server/domain/tools/catalogue";
import { PROVIDER_SHORT_LABELS, type ProviderId } from "@/server/domain/vocabulary/providers";
import { REASONING_MICRO_PROMPT, stagePolicy } from "@/server/policy/stages/policy";
import { actInstructions } from "./act-prompt";
import { actToolNames, actToolSet, runActTurn } from "./act-turn";
import { type AnswerStepRequest, streamAnswerStep } from "./answer-step";
import type { Ask, AskStage } from "./ask";
import { CallMeter } from "./call-meter";
import type { ModelCallRecord } from "./call-record";
import { composeSystemPrompt } from "./compose-prompt";
import { type CorrectionNote, correctAnswer, correctFailedTool } from "./corrections";
import { deliveryAsk } from "./delivery/delivery-ask";
import type { DeliveryCheckInput } from "./delivery/types";
import { ModelOutputError } from "./errors";
import { planAsk } from "./plan-ask";
import { loadPrompt, renderPrompt } from "./prompts";
import { createLanguageModel, effectiveBaseUrl } from "./providers";
import { qaToolSet, qaUserMessage, runQaTurn } from "./qa-turn";
import { withOutcome } from "./reasoning/outcome-prompt";
import type { WarmupInput, WarmupResult } from "./reasoning/types";
import { warmupCall } from "./reasoning/warmup-turn";
import { checkModelRequest, type RequestContext } from "./request-check";
import { requestToolCall } from "./request-tool-call";
import { chaosAsk, criticAsk, librarianAsk } from "./roles/role-asks";
import type { ChaosInput, CriticInput, LibrarianInput } from "./roles/types";
import { toModelError } from "./to-model-error";
import type {
  ActInput,
  AgentModel,
  ContractInput,
  DiscoverInput,
  PlanInput,
  QaInput,
  ReadPort,
} from "./types";
import { contractAsk, discoverIntentAsk } from "./understanding-asks";

export interface AiSdkModelConfig {
  /** Which AI SDK provider package speaks to the server; default "openai-compatible". */
  provider?: ProviderId;
  /**
   * The server's base URL, e.g. http://localhost:11434/v1 (Ollama). Required for "openai-compatible";
   * OpenAI and Anthropic default to their public APIs.
   */
  baseUrl?: string;
  apiKey?: string;
  modelName: string;
  /** Per request; a re-ask gets its own budget. */
  timeoutMs: number;
  /** Extra headers on every request (e.g. OpenRouter's HTTP-Referer, or `x-fake-scenario` in tests). */
  headers?: Record<string, string>;
  /**
   * SDK retries on retryable failures (connection errors, 5xx, 429), with its 2 s exponential backoff.
   * Default 0: the orchestrator owns retry policy, and a backoff inside the timeout would turn a clear
   * "connection refused" into a vague timeout.
   */
  maxRetries?: number;
  /** Which stages stream their answer over SSE. Default: only "act". */
  streamStages?: ReadonlyArray<ModelCallRecord["stage"]>;
  /** Directory of the prompt files; defaults to `<cwd>/prompts`. */
  promptsDir?: string;
}

/** What the invariant check needs of a request. */
interface Checked {
  stage: AskStage;
  workspaceTools: readonly ToolName[];
  request: RequestContext | undefined;
  instructions: string;
}

/**
 * The real model behind the port: OpenAI, Anthropic or any OpenAI-compatible server through the AI SDK. Each call is
 * built fresh from its inputs (no growing chat), must answer with a tool call, and gets exactly one
 * corrective re-ask when the answer does not validate.
 */
export class AiSdkModel implements AgentModel {
  readonly id: string;
  readonly label: string;
  readonly offline = false;
  readonly provider: ProviderId;
  private readonly model: LanguageModel;
  private readonly baseUrl: string;

  constructor(private readonly config: AiSdkModelConfig) {
    this.provider = config.provider ?? "openai-compatible";
    this.id = `${this.provider}:${config.modelName}`;
    const settings = { ...config, provider: this.provider };
    this.baseUrl = effectiveBaseUrl(settings) ?? "";
    // Shown to everyone in the team (header, runs, the event log): the model, never the server's
    // address, which only people who can change settings see (settings page).
    this.label = `${config.modelName} (${PROVIDER_SHORT_LABELS[this.provider]})`;
    this.model = createLanguageModel(settings);
  }

  /** The plan step: work directly or split (see plan-ask.ts). */
  async plan(input: PlanInput, signal?: AbortSignal) {
    const { value, call } = await this.ask(planAsk(input, this.config.promptsDir), signal);
    return { plan: value, call };
  }

  /** Seed 000's IntentDiscoverer, by the model: what the request asks (see understanding-asks.ts). */
  async discoverIntent(input: DiscoverInput, signal?: AbortSignal) {
    const { value, call } = await this.ask(discoverIntentAsk(input, this.config.promptsDir), signal);
    return { intent: value, call };
  }

  /** Full mode's roles (see roles/role-asks.ts). */
  async rankFiles(input: LibrarianInput, signal?: AbortSignal) {
    const { value, call } = await this.ask(librarianAsk(input, this.config.promptsDir), signal);
    return { ranking: value, call: { ...call, role: "librarian" as const } };
  }

  async critique(input: CriticInput, signal?: AbortSignal) {
    const { value, call } = await this.ask(criticAsk(input, this.config.promptsDir), signal);
    return { review: value, call: { ...call, role: "critic" as const } };
  }

  async adversarialTest(input: ChaosInput, signal?: AbortSignal) {
    const { value, call } = await this.ask(chaosAsk(input, this.config.promptsDir), signal);
    return { test: value, call: { ...call, role: "chaos" as const } };
  }

  /** Seed 000's ContractBuilder, by the model: an intention's checks (see understanding-asks.ts). */
  async buildContract(input: ContractInput, signal?: AbortSignal) {
    const { value, call } = await this.ask(contractAsk(input, this.config.promptsDir), signal);
    return { contract: value, call };
  }

  /** Seed 001 §2.5's delivery check: no workspace tools, one answer (see delivery/delivery-ask.ts). */
  async checkDelivery(input: DeliveryCheckInput, signal?: AbortSignal) {
    const { value, call } = await this.ask(deliveryAsk(input, this.config.promptsDir), signal);
    return { answer: value, call };
  }

  /**
   * The act step: the registry's tools are offered; the model may read a few times (each read runs
   * through `reads`, the engine's door to the dispatch) and then calls the tool that does the work.
   */
  async nextAction(input: ActInput, signal?: AbortSignal, reads?: ReadPort) {
    const maxReads = reads?.maxReads ?? 0;
    const dir = this.config.promptsDir;
    const offered = actToolNames();
    const ranked = input.rankedFiles
      ? `\n\n${renderPrompt("librarian-files", { files: input.rankedFiles }, { dir })}`
      : "";
    const qaNotes = input.qaNotes
      ? `\n\n${renderPrompt("qa-feedback", { notes: input.qaNotes }, { dir })}`
      : "";
    const ask = this.withInvariants({
      stage: "act" as const,
      workspaceTools: offered,
      request: input.request,
      instructions: withOutcome(
        actInstructions(input, maxReads, { dir }) + ranked + qaNotes,
        input.reasoning,
        {
          dir,
        },
      ),
      tools: actToolSet(offered, input.extraTools ?? []),
    });
    const meter = new CallMeter(this.id, "act", offered);
    const result = await runActTurn(
      { role: "user", content: input.what },
      {
        offered,
        extra: (input.extraTools ?? []).map((tool) => tool.name),
        reads,
        request: async (messages) => {
          const outcome = await this.request(ask, messages, signal);
          meter.count(ask.instructions, messages, outcome);
          return outcome;
        },
        correction: (answer, problem) => correctAnswer(answer, problem, "one of the offered tools", { dir }),
        opening: input.failedTool ? correctFailedTool(input.failedTool, { dir }) : null,
        readsExhausted: `You have used all ${maxReads} reads of this turn: now call the tool that does the work.`,
      },
    );
    if (!result.ok)
      throw new ModelOutputError(
        `${this.id} did not answer with a valid tool call after one corrective re-ask: ${result.problem}`,
        meter.record(result.corrections),
      );
    // With reasoning on, what the model wrote next to its action is the cycle's reflection.
    const reasoning = input.request?.reasoning === "on" && result.text !== "" ? result.text : undefined;
    return {
      action: result.action,
      call: meter.record(result.corrections),
      ...(reasoning ? { reasoning } : {}),
    };
  }

  /** Seed 001 §4.1: the macro warmup, a few reads (the policy's read-only tools), then plain text. */
  async warmup(input: WarmupInput, signal?: AbortSignal, reads?: ReadPort): Promise<WarmupResult> {
    const { promptsDir, maxRetries = 0 } = this.config;
    const turn = { id: this.id, model: this.model, promptsDir, maxRetries };
    return warmupCall(turn, input, reads, (send) => this.sent(signal, send));
  }

  /**
   * The advisory QA review: the stage policy's read-only tools plus `submit_qa_report`, with the
   * system prompt the policy composes. Checked against the policy like every request (exact tools).
   */
  async review(input: QaInput, signal?: AbortSignal, reads?: ReadPort) {
    const mode = input.request?.mode ?? "agent";
    const reasoning = input.request?.reasoning ?? "off";
    const policy = stagePolicy("qa_review", mode, reasoning);
    const dir = this.config.promptsDir;
    const instructions = composeSystemPrompt(
      policy,
      { project_root: "/workspace", tool_summary: policy.tools.join(", ") },
      dir ? { dir } : {},
    );
    if (input.request)
      checkModelRequest({ ...input.request, stage: "qa_review", tools: policy.tools, system: instructions });
    const tools = qaToolSet(policy.tools);
    const meter = new CallMeter(this.id, "qa_review", [...policy.tools]);
    const result = await runQaTurn(
      { role: "user", content: qaUserMessage(input) },
      {
        offered: policy.tools,
        reads,
        request: async (messages) => {
          const outcome = await this.request({ stage: "qa_review", instructions, tools }, messages, signal);
          meter.count(instructions, messages, outcome);
          return outcome;
        },
        correction: (problem) =>
          renderPrompt("correct-tool-call", { problem, tools: "submit_qa_report" }, { dir }),
      },
    );
    if (!result.ok)
      throw new ModelOutputError(`${this.id} gave no valid QA report: ${result.problem}`, meter.record());
    return { report: result.report, call: meter.record() };
  }

  /**
   * One request of the answer path, streamed. The caller (the answer runner) composed the prompt
   * from the stage policy and checked the request's invariants; this only sends it.
   */
  async answerStep(request: AnswerStepRequest, signal?: AbortSignal) {
    const meter = new CallMeter(this.id, "discover");
    const outcome = await this.sent(signal, (abortSignal) =>
      streamAnswerStep(this.model, request, {
        abortSignal,
        maxRetries: this.config.maxRetries ?? 0,
        ...(this.config.headers ? { headers: this.config.headers } : {}),
      }),
    );
    meter.count(request.instructions, request.messages, outcome);
    return { ...outcome, call: meter.record() };
  }

  /**
   * Seed 001 §9 for the agent's own requests: the reasoning instruction is added when (and only when)
   * the person's switch is on, and the request is checked against the stage policy before it leaves.
   * Other stages offer fewer tools than their policy allows, hence "subset".
   */
  private withInvariants<A extends Checked>(ask: A): A {
    if (!ask.request) return ask;
    const instructions =
      ask.request.reasoning === "on"
        ? `${ask.instructions}\n\n${loadPrompt(REASONING_MICRO_PROMPT, { dir: this.config.promptsDir })}`
        : ask.instructions;
    checkModelRequest({
      ...ask.request,
      stage: ask.stage,
      tools: [...ask.workspaceTools],
      toolMatch: "subset",
      system: instructions,
    });
    return { ...ask, instructions };
  }

  private async ask<T>(
    unchecked: Ask<T>,
    signal?: AbortSignal,
  ): Promise<{ value: T; call: ModelCallRecord }> {
    const ask = this.withInvariants(unchecked);
    const meter = new CallMeter(this.id, ask.stage, ask.workspaceTools);
    const corrections: CorrectionNote[] = [];
    const tools = Object.keys(ask.tools).join(" or ");
    const task: ModelMessage = { role: "user", content: ask.userMessage };
    let messages: ModelMessage[] = [task];
    let problem = "";
    for (const attempt of ["first ask", "re-ask"] as const) {
      const outcome = await this.request(ask, messages, signal);
      meter.count(ask.instructions, messages, outcome);
      const interpreted = ask.interpret(outcome.calls, outcome.text);
      if (interpreted.ok) return { value: interpreted.value, call: meter.record(corrections) };
      problem = interpreted.problem;
      if (attempt === "re-ask") break;
      // A fresh request with the correction appended, not a growing chat: the model sees the task
      // and what was wrong with its answer (in the words of that kind's prompt), nothing else.
      const correction = correctAnswer(outcome, problem, tools, { dir: this.config.promptsDir });
      corrections.push(correction.note);
      messages = [task, { role: "user", content: correction.message }];
    }
    throw new ModelOutputError(
      `${this.id} did not answer with a valid ${tools} call after one corrective re-ask: ${problem}`,
      meter.record(corrections),
    );
  }

  private request(
    ask: { stage: ModelCallRecord["stage"]; instructions: string; tools: ToolSet },
    messages: ModelMessage[],
    signal?: AbortSignal,
  ) {
    return this.sent(signal, (abortSignal) =>
      requestToolCall({
        model: this.model,
        instructions: ask.instructions,
        messages,
        tools: ask.tools,
        stream: (this.config.streamStages ?? ["act"]).includes(ask.stage),
        abortSignal,
        maxRetries: this.config.maxRetries ?? 0,
      }),
    );
  }

  /** One HTTP request under the per-request timeout; its failure becomes a ModelError the loop classifies. */
  private async sent<T>(signal: AbortSignal | undefined, send: (abortSignal: AbortSignal) => Promise<T>) {
    const timeout = AbortSignal.timeout(this.config.timeoutMs);
    const abortSignal = signal ? AbortSignal.any([signal, timeout]) : timeout;
    try {
      return await send(abortSignal);
    } catch (error) {
      // The caller cancelled (run stopped): not a model failure, let the abort propagate as is.
      if (signal?.aborted) throw signal.reason ?? error;
      throw toModelError(error, {
        baseUrl: this.baseUrl,
        apiKey: this.config.apiKey,
        timeoutMs: this.config.timeoutMs,
        timedOut: timeout.aborted,
      });
    }
  }
}
