import { describe, expect, it } from "vitest";
import { EventBody, type EventInput, type StoredEvent } from "@/server/domain/events/schema";
import { foldEvents } from "./fold";

const model = { id: "m", label: "M", offline: false };

function stored(bodies: EventInput[]): StoredEvent[] {
  return bodies.map((body, index) => ({
    seq: index + 1,
    at: "2026-01-01T00:00:00.000Z",
    body: EventBody.parse(body),
  }));
}

describe("old logs read with sensible defaults", () => {
  it("a run-started from before the switch was recorded reads as reasoning off", () => {
    const body = EventBody.parse({ type: "run-started", runId: "r", task: "t", mode: "agent", model });
    expect(body).toMatchObject({ reasoning: "off" });
  });

  it("an llm-called from before the request fields reads as not recorded, with no tools", () => {
    const body = EventBody.parse({
      type: "llm-called",
      runId: "r",
      intentionId: null,
      stage: "act",
      modelId: "m",
      offline: false,
      tokensIn: 1,
      tokensOut: 1,
      latencyMs: 1,
      error: null,
    });
    expect(body).toMatchObject({ mode: null, reasoning: null, tools: [], toolCount: 0 });
  });
});

describe("folding the answer path", () => {
  it("keeps the run's switches, its route and its tool calls (each once, even when delivered twice)", () => {
    const events = stored([
      { type: "run-started", runId: "r", task: "What?", mode: "chat", reasoning: "on", model },
      { type: "run-routed", runId: "r", route: "answer", kind: "question", reason: "Chat mode" },
      {
        type: "answer-tool-called",
        runId: "r",
        callId: "c1",
        tool: "fs.read",
        target: "README.md",
        status: "ok",
        summary: "# Demo",
      },
    ]);
    const view = foldEvents([...events, { ...(events[2] as StoredEvent), seq: 4 }]);
    const run = view.runs.r;
    expect(run).toMatchObject({
      mode: "chat",
      reasoning: "on",
      route: { route: "answer", kind: "question" },
    });
    expect(run?.answerTools).toEqual([
      { callId: "c1", tool: "fs.read", target: "README.md", status: "ok", summary: "# Demo" },
    ]);
  });
});
