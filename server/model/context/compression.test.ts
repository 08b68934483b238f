import { describe, expect, it } from "vitest";
import {
  COMPRESSION_THRESHOLDS,
  compressHistory,
  compressionTriggers,
  estimateMessagesTokens,
  type HistoryMessage,
} from "./compression";
import { sha256Of } from "./text";

const thresholds = { maxMessages: 6, maxTokens: 1000, keepLast: 2 };

function conversation(count: number, size = 10): HistoryMessage[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `m${index}`,
    role: index % 2 === 0 ? "user" : "assistant",
    content: `${index % 2 === 0 ? "question" : "answer"} ${index} ${"x".repeat(size)}`,
  }));
}

describe("compressionTriggers", () => {
  it.each([
    [{ messageCount: 6, tokenEstimate: 1000 }, []],
    [{ messageCount: 7, tokenEstimate: 1000 }, ["message_count"]],
    [{ messageCount: 6, tokenEstimate: 1001 }, ["token_estimate"]],
    [{ messageCount: 7, tokenEstimate: 1001 }, ["message_count", "token_estimate"]],
  ])("%j → %j", (stats, expected) => {
    expect(compressionTriggers(stats, thresholds)).toEqual(expected);
  });

  it("has defaults that leave a short conversation alone", () => {
    expect(compressionTriggers({ messageCount: 10, tokenEstimate: 2000 }, COMPRESSION_THRESHOLDS)).toEqual(
      [],
    );
  });
});

describe("compressHistory", () => {
  it("leaves a history under both thresholds as it is", () => {
    const history = conversation(6);
    const { messages, record } = compressHistory(history, thresholds);
    expect(messages).toEqual(history);
    expect(record.triggers).toEqual([]);
    expect(record.dropped).toEqual([]);
  });

  it("replaces older messages with one summary and keeps the latest verbatim", () => {
    const history = conversation(9);
    const { messages, record } = compressHistory(history, thresholds);
    expect(messages.map((message) => message.id)).toEqual(["summary:m0..m6", "m7", "m8"]);
    expect(messages[0]?.role).toBe("system");
    expect(messages[0]?.content).toBe(
      [
        "Summary of 7 earlier messages (4 from the user, 3 answers, 0 tool results).",
        "Goals and questions the user raised:",
        "- question 0 xxxxxxxxxx",
        "- question 2 xxxxxxxxxx",
        "- question 4 xxxxxxxxxx",
        "- question 6 xxxxxxxxxx",
      ].join("\n"),
    );
    expect(record.triggers).toEqual(["message_count"]);
    expect(record.dropped.map((item) => item.id)).toEqual(["m0", "m1", "m2", "m3", "m4", "m5", "m6"]);
    expect(record.dropped[0]).toEqual({
      item: "message",
      id: "m0",
      how: "omitted",
      sha256: sha256Of(history[0]),
      chars: JSON.stringify({ content: history[0]?.content, id: "m0", role: "user" }).length,
    });
    expect(record.keptChars).toBe(messages.reduce((sum, message) => sum + message.content.length, 0));
  });

  it("compresses on the token estimate alone", () => {
    const history = conversation(4, 2000);
    expect(estimateMessagesTokens(history)).toBeGreaterThan(thresholds.maxTokens);
    const { messages, record } = compressHistory(history, thresholds);
    expect(record.triggers).toEqual(["token_estimate"]);
    expect(messages).toHaveLength(3);
  });

  it("always strips old reasoning, and hashes dropped messages as they were stored", () => {
    const history: HistoryMessage[] = [
      { id: "a", role: "assistant", content: "<ide_reasoning>plan…</ide_reasoning>\nThe answer is 4." },
      { id: "b", role: "assistant", content: "Before <ide_reasoning>unterminated" },
      ...conversation(6),
    ];
    const { messages, record } = compressHistory(history, { ...thresholds, maxMessages: 100 });
    expect(messages.slice(0, 2).map((message) => message.content)).toEqual(["The answer is 4.", "Before"]);
    expect(record.dropped.map((item) => [item.how, item.id, item.sha256])).toEqual([
      ["reasoning_stripped", "a", sha256Of("<ide_reasoning>plan…</ide_reasoning>")],
      ["reasoning_stripped", "b", sha256Of("<ide_reasoning>unterminated")],
    ]);
    const compressed = compressHistory(history, thresholds);
    expect(compressed.record.dropped.find((item) => item.id === "a" && item.how === "omitted")?.sha256).toBe(
      sha256Of(history[0]),
    );
  });

  it("is deterministic", () => {
    const history = conversation(30, 50);
    expect(compressHistory(history, thresholds)).toEqual(compressHistory(history, thresholds));
  });
});
