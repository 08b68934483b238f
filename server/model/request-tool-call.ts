import {
  generateText,
  type LanguageModel,
  type LanguageModelUsage,
  type ModelMessage,
  streamText,
  ToolChoiceViolationError,
  type ToolSet,
} from "ai";
import type { ToolCallLike } from "./tool-inputs";

/**
 * One model request that must answer with a tool call, streamed or not. The tools have no `execute`:
 * we only want the call's input, which the caller safeParses. A reply without any tool call is not an
 * error here but an outcome with no calls, so the caller can re-ask.
 */

export interface ToolCallRequest {
  model: LanguageModel;
  instructions: string;
  messages: ModelMessage[];
  tools: ToolSet;
  stream: boolean;
  abortSignal: AbortSignal;
  maxRetries: number;
  headers?: Record<string, string>;
}

export interface ToolCallOutcome {
  calls: ToolCallLike[];
  text: string;
  /** Undefined when the server did not report usage; the caller estimates then. */
  tokensIn?: number;
  tokensOut?: number;
}

function fromUsage(usage: LanguageModelUsage): Pick<ToolCallOutcome, "tokensIn" | "tokensOut"> {
  return { tokensIn: usage.inputTokens, tokensOut: usage.outputTokens };
}

/** With `toolChoice: "required"` the SDK throws when the model only wrote text; keep that text. */
function textOnlyOutcome(error: ToolChoiceViolationError): ToolCallOutcome {
  const text = error.content.map((part) => (part.type === "text" ? part.text : "")).join("");
  return { calls: [], text };
}

async function generate(request: ToolCallRequest): Promise<ToolCallOutcome> {
  const result = await generateText({ ...request, toolChoice: "required", temperature: 0 });
  return {
    calls: result.toolCalls.map((call) => ({
      toolName: call.toolName,
      input: call.input,
      toolCallId: call.toolCallId,
    })),
    text: result.text,
    ...fromUsage(result.usage),
  };
}

async function stream(request: ToolCallRequest): Promise<ToolCallOutcome> {
  let streamError: unknown;
  const result = streamText({
    ...request,
    toolChoice: "required",
    temperature: 0,
    // Errors arrive as stream parts; collect the first instead of letting the SDK log it to stderr.
    onError: ({ error }) => {
      streamError ??= error;
    },
  });
  const calls: ToolCallLike[] = [];
  let text = "";
  for await (const part of result.stream) {
    if (part.type === "tool-call")
      calls.push({ toolName: part.toolName, input: part.input, toolCallId: part.toolCallId });
    else if (part.type === "text-delta") text += part.text;
    else if (part.type === "error") streamError ??= part.error;
  }
  if (streamError !== undefined) throw streamError;
  request.abortSignal.throwIfAborted();
  return { calls, text, ...fromUsage(await result.usage) };
}

export async function requestToolCall(request: ToolCallRequest): Promise<ToolCallOutcome> {
  try {
    return await (request.stream ? stream(request) : generate(request));
  } catch (error) {
    if (ToolChoiceViolationError.isInstance(error)) return textOnlyOutcome(error);
    throw error;
  }
}
