import { generateText, type LanguageModel, type ModelMessage } from "ai";
import { estimateTokens } from "@/server/domain/text/tokens";
import type { ToolName } from "@/server/domain/tools/catalogue";
import { toolNameOf } from "@/server/domain/tools/wire-names";
import type { ModelCallRecord } from "@/server/model/call-record";
import { readToolSet } from "../read-tools";
import type { ReadPort } from "../types";
import type { WarmupInput, WarmupResult } from "./types";
import { warmupInstructions, warmupTools, warmupUserMessage } from "./warmup-request";

/**
 * The macro warmup as one model turn with reads (seed 001 §4.1's "Research"): the model may look at
 * the repository through the stage policy's read-only tools — each read runs through the engine's
 * read port, the one dispatch, and is logged there — and then writes its reasoning as text. Anything
 * it calls that is not offered is refused in words and never reaches the dispatch; once the reads are
 * used up it is told to write the warmup.
 */

export interface WarmupTurn {
  model: LanguageModel;
  instructions: string;
  userMessage: string;
  offered: readonly ToolName[];
  reads: ReadPort | undefined;
  abortSignal: AbortSignal;
  maxRetries: number;
}

export interface WarmupTurnResult {
  text: string;
  tokensIn: number | undefined;
  tokensOut: number | undefined;
  /** The reads made, as `fs.read {"path":"a"}`, in order. */
  reads: string[];
}

export async function runWarmupTurn(turn: WarmupTurn): Promise<WarmupTurnResult> {
  // No `thought` on a read here: a read in the warmup is research, not an action.
  const tools = readToolSet(turn.offered);
  const messages: ModelMessage[] = [{ role: "user", content: turn.userMessage }];
  const maxReads = turn.reads?.maxReads ?? 0;
  const made: string[] = [];
  let tokensIn: number | undefined;
  let tokensOut: number | undefined;
  const add = (a: number | undefined, b: number | undefined) => (b === undefined ? a : (a ?? 0) + b);
  // Each read round costs a request; the bound keeps a model that never stops reading from looping.
  for (let round = 0; round <= maxReads + 1; round++) {
    const result = await generateText({
      model: turn.model,
      instructions: turn.instructions,
      messages,
      ...(Object.keys(tools).length > 0 ? { tools, toolChoice: "auto" as const } : {}),
      temperature: 0,
      abortSignal: turn.abortSignal,
      maxRetries: turn.maxRetries,
    });
    tokensIn = add(tokensIn, result.usage.inputTokens);
    tokensOut = add(tokensOut, result.usage.outputTokens);
    if (result.toolCalls.length === 0) return { text: result.text, tokensIn, tokensOut, reads: made };
    const asked: { type: "tool-call"; toolCallId: string; toolName: string; input: unknown }[] = [];
    const results: ModelMessage[] = [];
    for (const call of result.toolCalls) {
      const name = toolNameOf(call.toolName);
      let value: string;
      if (!name || !turn.offered.includes(name)) {
        value = `${call.toolName} is not available in the warmup: only ${turn.offered.join(", ")} (read-only). Nothing was changed.`;
      } else if (!turn.reads || made.length >= maxReads) {
        value = "No reads left in the warmup: write your reasoning now, without calling a tool.";
      } else {
        made.push(`${name} ${JSON.stringify(call.input ?? {}).slice(0, 300)}`);
        value = await turn.reads.run({ tool: name, input: call.input ?? {} });
      }
      asked.push({
        type: "tool-call",
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        input: call.input ?? {},
      });
      results.push({
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: call.toolCallId,
            toolName: call.toolName,
            output: { type: "text", value },
          },
        ],
      });
    }
    messages.push({ role: "assistant", content: asked }, ...results);
  }
  throw new Error(
    `the warmup kept calling tools after its ${maxReads} reads instead of writing its reasoning`,
  );
}

/**
 * The AI SDK model's warmup: the composed, checked instructions (warmup-request.ts), the turn with
 * reads, and its call record. `sent` is the model's wrapper that applies the per-request timeout and
 * turns a failure into a ModelError.
 */
export async function warmupCall(
  turn: { id: string; model: LanguageModel; promptsDir: string | undefined; maxRetries: number },
  input: WarmupInput,
  reads: ReadPort | undefined,
  sent: (send: (abortSignal: AbortSignal) => Promise<WarmupTurnResult>) => Promise<WarmupTurnResult>,
): Promise<WarmupResult> {
  if (!input.request) throw new Error("the warmup needs the run's mode and reasoning switch");
  const instructions = warmupInstructions(input.request, turn.promptsDir ? { dir: turn.promptsDir } : {});
  const userMessage = warmupUserMessage(input);
  const offered = warmupTools(input.request);
  const startedAt = performance.now();
  const result = await sent((abortSignal) =>
    runWarmupTurn({
      model: turn.model,
      instructions,
      userMessage,
      offered,
      reads,
      abortSignal,
      maxRetries: turn.maxRetries,
    }),
  );
  const call: ModelCallRecord = {
    stage: "warmup",
    modelId: turn.id,
    offline: false,
    tokensIn: result.tokensIn ?? estimateTokens(instructions + userMessage),
    tokensOut: result.tokensOut ?? estimateTokens(result.text),
    latencyMs: performance.now() - startedAt,
    tools: [...offered],
  };
  return { text: result.text, call };
}
