import { describe, expect, it } from "vitest";
import type { MessageView } from "@/server/domain/session/view";
import { READ_ONLY_TOOLS, TOOL_NAMES } from "@/server/domain/tools/catalogue";
import { stagePolicy } from "@/server/policy/stages/policy";
import {
  answerHistory,
  MAX_ANSWER_TOOL_CALLS,
  screenToolCall,
  summarizeResult,
  targetOf,
  toolFromWire,
  wireToolName,
} from "./answer-loop";

const chatTools = stagePolicy("discover", "chat", "off").tools;

describe("screening the answer path's tool calls", () => {
  it("offers exactly the policy's read-only tools in Chat mode", () => {
    expect(chatTools).toEqual([...READ_ONLY_TOOLS]);
  });

  it("runs a read-only tool, by its wire name or its vocabulary name", () => {
    expect(screenToolCall("fs_read", chatTools, 0)).toEqual({ kind: "run", tool: "fs.read" });
    expect(screenToolCall("git.log", chatTools, 0)).toEqual({ kind: "run", tool: "git.log" });
  });

  it("refuses every tool outside the read-only subset, and tools that do not exist", () => {
    const mutating = TOOL_NAMES.filter((tool) => !(READ_ONLY_TOOLS as readonly string[]).includes(tool));
    expect(mutating.length).toBeGreaterThan(5);
    for (const tool of mutating) {
      const screened = screenToolCall(wireToolName(tool), chatTools, 0);
      expect(screened).toMatchObject({ kind: "refused", tool });
      if (screened.kind === "refused") expect(screened.reason).toContain("Nothing was changed");
    }
    expect(screenToolCall("rm_rf", chatTools, 0)).toMatchObject({ kind: "refused", tool: "rm_rf" });
  });

  it("runs an MCP tool the request offered, refuses one it did not, and counts it in the budget", () => {
    const safe = ["mcp__everything__get-sum"];
    expect(screenToolCall("mcp__everything__get-sum", chatTools, 0, safe)).toEqual({
      kind: "run",
      tool: "mcp__everything__get-sum",
    });
    expect(screenToolCall("mcp__everything__echo", chatTools, 0, safe)).toMatchObject({
      kind: "refused",
      tool: "mcp__everything__echo",
    });
    expect(screenToolCall("mcp__everything__get-sum", chatTools, 0)).toMatchObject({ kind: "refused" });
    expect(screenToolCall("mcp__everything__get-sum", chatTools, MAX_ANSWER_TOOL_CALLS, safe).kind).toBe(
      "capped",
    );
  });

  it(`stops at ${MAX_ANSWER_TOOL_CALLS} tool calls and tells the model to answer`, () => {
    expect(screenToolCall("fs_read", chatTools, MAX_ANSWER_TOOL_CALLS - 1).kind).toBe("run");
    const capped = screenToolCall("fs_read", chatTools, MAX_ANSWER_TOOL_CALLS);
    expect(capped.kind).toBe("capped");
    if (capped.kind === "capped") expect(capped.reason).toContain("answer now");
  });

  it("maps wire names back to the vocabulary, and nothing else", () => {
    for (const tool of TOOL_NAMES) expect(toolFromWire(wireToolName(tool))).toBe(tool);
    expect(wireToolName("select_active_intent")).toBe("select_active_intent");
    expect(toolFromWire("fs-read")).toBeNull();
  });
});

describe("what a call looked at, and its summary", () => {
  it("names the pattern and the path", () => {
    expect(targetOf({ path: "src/app.ts" })).toBe("src/app.ts");
    expect(targetOf({ pattern: "TODO", path: "src" })).toBe("TODO in src");
    expect(targetOf({})).toBe("");
    expect(targetOf("not an object")).toBe("");
  });

  it("caps a long result to one short line", () => {
    const summary = summarizeResult(`${"line\n".repeat(500)}`);
    expect(summary.length).toBeLessThanOrEqual(300);
    expect(summary).not.toContain("\n");
    expect(summary.endsWith("…")).toBe(true);
  });
});

function message(id: string, role: MessageView["role"], text: string, runId: string | null): MessageView {
  return { id, role, text, runId, at: "2026-01-01T00:00:00.000Z" };
}

describe("the history an answer request is built from", () => {
  it("is this session's earlier turns then the question, without system notices or this run's messages", () => {
    const history = answerHistory(
      [
        message("1", "user", "What is Arbor?", "r1"),
        message("2", "agent", "A browser IDE.", "r1"),
        message("3", "system", "The model could not answer: timeout", "r2"),
        message("4", "user", "And the sandbox?", "r3"),
      ],
      "r3",
      "And the sandbox?",
    );
    expect(history).toEqual([
      { role: "user", content: "What is Arbor?" },
      { role: "assistant", content: "A browser IDE." },
      { role: "user", content: "And the sandbox?" },
    ]);
  });

  it("never grows without bound: a long session is compressed into a summary and the latest turns", () => {
    const long = Array.from({ length: 200 }, (_, index) =>
      message(
        String(index),
        index % 2 === 0 ? "user" : "agent",
        `turn ${index} ${"x".repeat(400)}`,
        `r${index}`,
      ),
    );
    const history = answerHistory(long, "now", "the question");
    expect(history.length).toBeLessThanOrEqual(10);
    expect(history[0]?.content).toContain("(Earlier in this session) Summary of");
    expect(history.at(-1)).toEqual({ role: "user", content: "the question" });
  });

  it("drops old reasoning blocks from earlier answers", () => {
    const history = answerHistory(
      [message("1", "agent", "<ide_reasoning>private plan</ide_reasoning>The answer.", "r1")],
      "r2",
      "next",
    );
    expect(history[0]).toEqual({ role: "assistant", content: "The answer." });
  });
});
