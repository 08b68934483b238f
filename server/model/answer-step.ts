import { jsonSchema, type LanguageModel, type ModelMessage, streamText, type ToolSet, tool } from "ai";
import type { z } from "zod";

/**
 * One request of the answer path: the model may call the offered read-only tools or answer in text,
 * and its text streams out through `onText` as it arrives. The tools have no `execute`: the caller
 * runs each call through the one dispatch (`server/tools/dispatch.ts`) and sends the result back in the
 * next request, so no tool ever runs inside the SDK.
 */

/** A catalogue tool with its zod input, or a project's MCP tool with the JSON Schema its server gave. */
export type AnswerTool = {
  /** The name on the wire (`fs_read`); the caller maps it back to the vocabulary. */
  wireName: string;
  description: string;
} & ({ input: z.ZodType } | { inputSchema: Record<string, unknown> });

export interface AnswerStepRequest {
  instructions: string;
  messages: ModelMessage[];
  tools: readonly AnswerTool[];
  /** The whole text so far, each time more arrives. */
  onText(textSoFar: string): void;
}

export interface AnswerToolCall {
  id: string;
  /** As the model wrote it; may name a tool that was not offered (the caller refuses it). */
  wireName: string;
  input: unknown;
}

export interface AnswerStepOutcome {
  text: string;
  calls: AnswerToolCall[];
  tokensIn?: number;
  tokensOut?: number;
}

export async function streamAnswerStep(
  model: LanguageModel,
  request: AnswerStepRequest,
  options: { abortSignal: AbortSignal; maxRetries: number; headers?: Record<string, string> },
): Promise<AnswerStepOutcome> {
  const tools: ToolSet = {};
  for (const offered of request.tools) {
    const inputSchema =
      "inputSchema" in offered
        ? jsonSchema(offered.inputSchema as Parameters<typeof jsonSchema>[0])
        : offered.input;
    tools[offered.wireName] = tool({ description: offered.description, inputSchema });
  }
  let streamError: unknown;
  const result = streamText({
    model,
    instructions: request.instructions,
    messages: request.messages,
    tools,
    temperature: 0,
    abortSignal: options.abortSignal,
    maxRetries: options.maxRetries,
    ...(options.headers ? { headers: options.headers } : {}),
    onError: ({ error }) => {
      streamError ??= error;
    },
  });
  const calls: AnswerToolCall[] = [];
  let text = "";
  for await (const part of result.stream) {
    if (part.type === "text-delta") {
      text += part.text;
      request.onText(text);
    } else if (part.type === "tool-call") {
      // An unknown or unparsable call arrives marked invalid; it is kept so the caller can refuse it
      // in words the model reads, instead of it vanishing.
      calls.push({ id: part.toolCallId, wireName: part.toolName, input: part.input });
    } else if (part.type === "error") streamError ??= part.error;
  }
  if (streamError !== undefined) throw streamError;
  options.abortSignal.throwIfAborted();
  const usage = await result.usage;
  return { text, calls, tokensIn: usage.inputTokens, tokensOut: usage.outputTokens };
}
