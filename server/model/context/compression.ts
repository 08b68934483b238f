import { capEnd } from "@/server/domain/text/cap";
import { estimateTokens } from "@/server/domain/text/tokens";
import { type CompressionRecord, type CompressionTrigger, type DroppedItem, droppedItem } from "./record";
import { flatten } from "./text";

/**
 * History compression for conversations that do keep a history (Chat mode, seed 001 §7): when the
 * message count or the token estimate crosses a threshold, the oldest messages are replaced by one
 * structured summary message and the latest few are kept. Old `<ide_reasoning>` blocks are removed
 * from every message in any case (§4.3: only the compact outcome is retained). Deterministic: the
 * same history and thresholds always give the same result, and every removal is recorded.
 */

export interface HistoryMessage {
  id: string;
  role: "user" | "assistant" | "tool" | "system";
  content: string;
}

export interface CompressionThresholds {
  maxMessages: number;
  maxTokens: number;
  /** Latest messages kept verbatim when compressing. */
  keepLast: number;
}

export const COMPRESSION_THRESHOLDS: CompressionThresholds = {
  maxMessages: 40,
  maxTokens: 24_000,
  keepLast: 8,
};

/** Per-message overhead (role, separators) in the token estimate. */
const MESSAGE_OVERHEAD_TOKENS = 4;

export function estimateMessagesTokens(messages: readonly HistoryMessage[]): number {
  return messages.reduce(
    (sum, message) => sum + estimateTokens(message.content) + MESSAGE_OVERHEAD_TOKENS,
    0,
  );
}

export function compressionTriggers(
  stats: { messageCount: number; tokenEstimate: number },
  thresholds: CompressionThresholds = COMPRESSION_THRESHOLDS,
): CompressionTrigger[] {
  return [
    ...(stats.messageCount > thresholds.maxMessages ? (["message_count"] as const) : []),
    ...(stats.tokenEstimate > thresholds.maxTokens ? (["token_estimate"] as const) : []),
  ];
}

const REASONING_BLOCK = /<ide_reasoning>[\s\S]*?(<\/ide_reasoning>|$)/g;

function stripReasoning(message: HistoryMessage, dropped: DroppedItem[]): HistoryMessage {
  const blocks = message.content.match(REASONING_BLOCK);
  if (!blocks) return message;
  for (const block of blocks) dropped.push(droppedItem("reasoning", "reasoning_stripped", block, message.id));
  return { ...message, content: message.content.replace(REASONING_BLOCK, "").trim() };
}

const SUMMARY_GOALS = 10;
const SUMMARY_LINE_CHARS = 160;

/** The structured summary message: goals the user stated, and what kinds of messages were folded in. */
function summaryMessage(removed: readonly HistoryMessage[]): HistoryMessage {
  const goals = removed
    .filter((message) => message.role === "user")
    .map((message) => capEnd(flatten(message.content), SUMMARY_LINE_CHARS))
    .filter((goal) => goal !== "")
    .slice(-SUMMARY_GOALS);
  const byRole = (role: HistoryMessage["role"]) => removed.filter((message) => message.role === role).length;
  const lines = [
    `Summary of ${removed.length} earlier messages (${byRole("user")} from the user, ${byRole("assistant")} answers, ${byRole("tool")} tool results).`,
    goals.length > 0 ? "Goals and questions the user raised:" : "The user raised no questions in them.",
    ...goals.map((goal) => `- ${goal}`),
  ];
  return {
    id: `summary:${removed[0]?.id ?? ""}..${removed.at(-1)?.id ?? ""}`,
    role: "system",
    content: lines.join("\n"),
  };
}

export interface CompressedHistory {
  messages: HistoryMessage[];
  record: CompressionRecord;
}

export function compressHistory(
  history: readonly HistoryMessage[],
  thresholds: CompressionThresholds = COMPRESSION_THRESHOLDS,
): CompressedHistory {
  const dropped: DroppedItem[] = [];
  const cleaned = history.map((message) => stripReasoning(message, dropped));
  const triggers = compressionTriggers(
    { messageCount: cleaned.length, tokenEstimate: estimateMessagesTokens(cleaned) },
    thresholds,
  );
  const keep = Math.max(0, thresholds.keepLast);
  let messages = cleaned;
  if (triggers.length > 0 && cleaned.length > keep) {
    const removed = cleaned.slice(0, cleaned.length - keep);
    // Hashed as stored (reasoning included), so the UI finds the original in the event log.
    for (const message of history.slice(0, removed.length)) {
      dropped.push(droppedItem("message", "omitted", message, message.id));
    }
    messages = [summaryMessage(removed), ...cleaned.slice(cleaned.length - keep)];
  }
  const keptChars = messages.reduce((sum, message) => sum + message.content.length, 0);
  return { messages, record: { triggers, dropped, keptChars } };
}
