import { backticked, type ChatRequest, type FakeReply, lastUserText, toolResults } from "./request";

/** The answer path (chat mode: read-only tools offered), as the fake model answers it. */

const ANSWER_CHUNK_DELAY_MS = 40;

/**
 * The answer path: first look (fs_search for the question's first backticked word or last word, and
 * fs_read of README.md), then answer in text that quotes what the tools returned, streamed slowly.
 */
export function answerReply(request: ChatRequest): FakeReply {
  const results = toolResults(request);
  const question = lastUserText(request);
  if (results.length === 0) {
    const words = question.match(/[A-Za-z_][\w.-]{2,}/g) ?? ["README"];
    const pattern = backticked(question) ?? words.at(-1) ?? "README";
    return {
      type: "tool-calls",
      calls: [
        { name: "fs_search", arguments: { pattern, ignoreCase: true } },
        { name: "fs_read", arguments: { path: "README.md" } },
      ],
    };
  }
  const firstLine = (text: string) =>
    text
      .split("\n")
      .map((line) => line.replace(/^ *\d+\t/, "").trim())
      .find((line) => line !== "") ?? "(nothing)";
  const text = [
    `Here is what I found about "${question}" after ${results.length} tool calls.`,
    `The search said: ${firstLine(results[0] ?? "")}.`,
    `README.md begins with: ${firstLine(results[1] ?? "")}.`,
    "That is the whole answer from Arbor's fake model server, streamed word by word so the page can show it growing.",
  ].join(" ");
  return { type: "text", text, chunkDelayMs: ANSWER_CHUNK_DELAY_MS };
}

/** A model that ignores the read-only tools it was offered and asks for a write. */
export function writeAttemptReply(request: ChatRequest): FakeReply {
  if (toolResults(request).length === 0) {
    return {
      type: "tool-calls",
      calls: [{ name: "fs_write", arguments: { path: "pwned.txt", content: "written from chat mode" } }],
    };
  }
  return { type: "text", text: `The write was refused: ${toolResults(request)[0] ?? ""}` };
}
