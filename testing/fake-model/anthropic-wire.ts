import type { ChatMessage, ChatRequest, FakeReply } from "./request";
import { pieces, type Usage } from "./wire";

/**
 * The Anthropic Messages wire format (`POST /v1/messages`), so `@ai-sdk/anthropic` runs against the same
 * scripted scenarios as the OpenAI providers: the request is read into the scenarios' `ChatRequest`,
 * and a reply goes back as one JSON message or as Anthropic's named SSE events.
 */

type ContentReply = Extract<FakeReply, { type: "text" | "tool-calls" }>;

export class AnthropicRequestError extends Error {}

/** Anthropic's `{ type, messages, tools: [{ name }] }`, as the scenarios expect it. */
export function parseMessagesRequest(
  body: unknown,
  headers: Record<string, string | undefined>,
): ChatRequest {
  if (typeof body !== "object" || body === null)
    throw new AnthropicRequestError("The request body must be a JSON object.");
  const { model, messages, tools, stream, max_tokens } = body as Record<string, unknown>;
  if (typeof model !== "string" || model === "") throw new AnthropicRequestError("model: Field required");
  if (typeof max_tokens !== "number") throw new AnthropicRequestError("max_tokens: Field required");
  if (!Array.isArray(messages) || messages.length === 0)
    throw new AnthropicRequestError("messages: at least one message is required");
  const toolNames = Array.isArray(tools)
    ? tools.map((tool: { name?: unknown }) => tool?.name).filter((name) => typeof name === "string")
    : [];
  return { model, messages: messages as ChatMessage[], toolNames, stream: stream === true, headers };
}

function toolInput(argumentsValue: unknown): { input: unknown; json: string } {
  if (typeof argumentsValue !== "string")
    return { input: argumentsValue, json: JSON.stringify(argumentsValue) };
  // A scenario's deliberately broken JSON: streamed as is, so the SDK sees exactly what was scripted.
  try {
    return { input: JSON.parse(argumentsValue), json: argumentsValue };
  } catch {
    return { input: {}, json: argumentsValue };
  }
}

function contentBlocks(reply: ContentReply, id: string) {
  if (reply.type === "text") return [{ type: "text" as const, text: reply.text }];
  return reply.calls.map((call, index) => ({
    type: "tool_use" as const,
    id: `toolu_${id}_${index}`,
    name: call.name,
    ...toolInput(call.arguments),
  }));
}

const stopReason = (reply: ContentReply) => (reply.type === "tool-calls" ? "tool_use" : "end_turn");

export function messageBody(reply: ContentReply, model: string, id: string, usage: Usage) {
  return {
    id: `msg_${id}`,
    type: "message",
    role: "assistant",
    model,
    content: contentBlocks(reply, id).map((block) =>
      block.type === "text"
        ? block
        : { type: block.type, id: block.id, name: block.name, input: block.input },
    ),
    stop_reason: stopReason(reply),
    stop_sequence: null,
    usage: { input_tokens: usage.prompt_tokens, output_tokens: usage.completion_tokens },
  };
}

/** Named SSE events: `[eventName, data]` pairs in the order Anthropic sends them. */
export function messageEvents(
  reply: ContentReply,
  model: string,
  id: string,
  usage: Usage,
): [string, unknown][] {
  const events: [string, unknown][] = [
    [
      "message_start",
      {
        type: "message_start",
        message: {
          id: `msg_${id}`,
          type: "message",
          role: "assistant",
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: usage.prompt_tokens, output_tokens: 1 },
        },
      },
    ],
  ];
  contentBlocks(reply, id).forEach((block, index) => {
    if (block.type === "text") {
      events.push([
        "content_block_start",
        { type: "content_block_start", index, content_block: { type: "text", text: "" } },
      ]);
      for (const piece of block.text.split(/(?<=\s)/)) {
        events.push([
          "content_block_delta",
          { type: "content_block_delta", index, delta: { type: "text_delta", text: piece } },
        ]);
      }
    } else {
      const start = { type: "tool_use", id: block.id, name: block.name, input: {} };
      events.push(["content_block_start", { type: "content_block_start", index, content_block: start }]);
      for (const piece of pieces(block.json, 3)) {
        const delta = { type: "input_json_delta", partial_json: piece };
        events.push(["content_block_delta", { type: "content_block_delta", index, delta }]);
      }
    }
    events.push(["content_block_stop", { type: "content_block_stop", index }]);
  });
  events.push([
    "message_delta",
    {
      type: "message_delta",
      delta: { stop_reason: stopReason(reply), stop_sequence: null },
      usage: { output_tokens: usage.completion_tokens },
    },
  ]);
  events.push(["message_stop", { type: "message_stop" }]);
  return events;
}

export function anthropicErrorBody(status: number, message: string) {
  const type =
    status === 401
      ? "authentication_error"
      : status === 404
        ? "not_found_error"
        : status === 429
          ? "rate_limit_error"
          : status >= 500
            ? "api_error"
            : "invalid_request_error";
  return { type: "error", error: { type, message } };
}
