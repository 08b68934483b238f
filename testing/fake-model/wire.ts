import type { FakeReply } from "./request";

/**
 * The OpenAI chat-completions wire format, as the fake server sends it: one JSON body, or a series of
 * SSE chunks in which tool-call arguments arrive in several pieces, the way real servers stream them.
 */

type ContentReply = Extract<FakeReply, { type: "text" | "tool-calls" }>;

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

interface WireToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

function wireToolCalls(reply: ContentReply, id: string): WireToolCall[] {
  if (reply.type !== "tool-calls") return [];
  return reply.calls.map((call, index) => ({
    id: `call_${id}_${index}`,
    type: "function",
    function: {
      name: call.name,
      arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments),
    },
  }));
}

function finishReason(reply: ContentReply): "stop" | "tool_calls" {
  return reply.type === "tool-calls" ? "tool_calls" : "stop";
}

/** The text of a reply: a text reply's, or what a tool-call reply writes next to its calls. */
function replyText(reply: ContentReply): string {
  return reply.type === "text" ? reply.text : (reply.text ?? "");
}

export function usageFor(promptText: string, reply: ContentReply): Usage {
  const output = reply.type === "text" ? reply.text : `${reply.text ?? ""}${JSON.stringify(reply.calls)}`;
  const prompt_tokens = Math.ceil(promptText.length / 4);
  const completion_tokens = Math.ceil(output.length / 4);
  return { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens };
}

export function completionBody(reply: ContentReply, model: string, id: string, usage: Usage) {
  const toolCalls = wireToolCalls(reply, id);
  return {
    id: `chatcmpl-${id}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: replyText(reply) || null,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: finishReason(reply),
      },
    ],
    usage,
  };
}

/** Splits a string into `count` roughly equal pieces (at least one, none empty unless the string is). */
export function pieces(text: string, count: number): string[] {
  if (text.length === 0) return [""];
  const size = Math.max(1, Math.ceil(text.length / count));
  const result: string[] = [];
  for (let start = 0; start < text.length; start += size) result.push(text.slice(start, start + size));
  return result;
}

export function completionChunks(reply: ContentReply, model: string, id: string, usage: Usage): unknown[] {
  const base = {
    id: `chatcmpl-${id}`,
    object: "chat.completion.chunk",
    created: Math.floor(Date.now() / 1000),
    model,
  };
  const chunk = (delta: object, finish: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const chunks: unknown[] = [chunk({ role: "assistant", content: "" })];
  if (replyText(reply) !== "") {
    for (const piece of replyText(reply).split(/(?<=\s)/)) chunks.push(chunk({ content: piece }));
  }
  wireToolCalls(reply, id).forEach((call, index) => {
    chunks.push(
      chunk({
        tool_calls: [
          { index, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } },
        ],
      }),
    );
    for (const piece of pieces(call.function.arguments, 3)) {
      chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  chunks.push(chunk({}, finishReason(reply)));
  chunks.push({ ...base, choices: [], usage });
  return chunks;
}

export function errorBody(status: number, message: string, param: string | null = null) {
  const type =
    status >= 500 ? "server_error" : status === 401 ? "authentication_error" : "invalid_request_error";
  return { error: { message, type, param, code: null as string | null } };
}
