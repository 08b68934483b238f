import type { MessageView } from "@/server/domain/session/view";
import { TOOL_NAMES, type ToolName } from "@/server/domain/tools/catalogue";
import { compressHistory, type HistoryMessage } from "@/server/model/context/compression";

/**
 * The pure parts of the answer path (Chat mode, and Agent-mode questions): how many tool calls a
 * question may spend, which calls are refused, what a call looked at, and the compressed history a
 * request is built from. No I/O here; `answer-runner.ts` does the talking.
 */

/** Tool calls one answer may make; the ninth is not run and the model is told to answer. */
export const MAX_ANSWER_TOOL_CALLS = 8;
/** Model requests one answer may make: one per tool-call round plus the forced final answer. */
export const MAX_ANSWER_REQUESTS = MAX_ANSWER_TOOL_CALLS + 2;

/** Function names must match `^[a-zA-Z0-9_-]+$` on OpenAI's wire, so `fs.read` is sent as `fs_read`. */
export function wireToolName(tool: ToolName): string {
  return tool.replaceAll(".", "_");
}

/** The vocabulary name a wire name stands for (any tool, so a refused `fs_write` is named as such). */
export function toolFromWire(wire: string): ToolName | null {
  return TOOL_NAMES.find((tool) => tool === wire || wireToolName(tool) === wire) ?? null;
}

export type ScreenedCall =
  | { kind: "run"; tool: string }
  | { kind: "refused"; tool: string; reason: string }
  | { kind: "capped"; tool: string; reason: string };

/**
 * Decides a requested call before the dispatch sees it: only the stage policy's tools run (in Chat
 * mode that is the read-only subset, so a write is refused here and never reaches the sandbox), and
 * only while the budget of calls lasts.
 */
export function screenToolCall(
  wire: string,
  allowed: readonly ToolName[],
  callsSoFar: number,
  /** The project's MCP tools this request offered (Safe ones only), by registry name = wire name. */
  extra: readonly string[] = [],
): ScreenedCall {
  const tool = extra.includes(wire) ? wire : toolFromWire(wire);
  if (!tool || !((allowed as readonly string[]).includes(tool) || extra.includes(tool))) {
    return {
      kind: "refused",
      tool: tool ?? wire,
      reason: `${tool ?? wire} is not available when answering a question: only ${[...allowed, ...extra].join(", ")} (read-only). Nothing was changed.`,
    };
  }
  if (callsSoFar >= MAX_ANSWER_TOOL_CALLS) {
    return {
      kind: "capped",
      tool,
      reason: `The limit of ${MAX_ANSWER_TOOL_CALLS} tool calls for one answer is reached: answer now with what you found.`,
    };
  }
  return { kind: "run", tool };
}

/** What a call looked at, for the line under the answer ("fs.read README.md", "fs.search todo"). */
export function targetOf(input: unknown): string {
  if (typeof input !== "object" || input === null) return "";
  const fields = input as Record<string, unknown>;
  const parts = [fields.pattern, fields.path, fields.ref]
    .filter((value): value is string => typeof value === "string" && value !== "")
    .map((value) => value.slice(0, 200));
  return parts.join(" in ");
}

const SUMMARY_CHARS = 300;

/** A short excerpt of a tool's result for the log (the model reads the whole result). */
export function summarizeResult(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= SUMMARY_CHARS ? flat : `${flat.slice(0, SUMMARY_CHARS - 1)}…`;
}

export interface ChatTurn {
  role: "user" | "assistant";
  content: string;
}

/**
 * The conversation a fresh answer request carries (seed 002: built from the store each time): this
 * session's earlier user and agent messages, compressed by `compressHistory` when they grow (old
 * turns become one summary, reasoning blocks are dropped), then the question itself. System notices
 * are not part of the conversation.
 */
export function answerHistory(messages: readonly MessageView[], runId: string, question: string): ChatTurn[] {
  const earlier: HistoryMessage[] = messages
    .filter((message) => message.runId !== runId && message.role !== "system")
    .map((message) => ({
      id: message.id,
      role: message.role === "user" ? "user" : "assistant",
      content: message.text,
    }));
  const { messages: compressed } = compressHistory(earlier);
  const turns: ChatTurn[] = compressed.map((message) =>
    message.role === "user" || message.role === "assistant"
      ? { role: message.role, content: message.content }
      : { role: "user", content: `(Earlier in this session) ${message.content}` },
  );
  return [...turns, { role: "user", content: question }];
}
