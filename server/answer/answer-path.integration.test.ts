import { describe, expect, it } from "vitest";
import type { StoredEvent } from "@/server/domain/events/schema";
import { READ_ONLY_TOOLS } from "@/server/domain/tools/catalogue";
import { EventStore } from "@/server/events/store";
import { type AgentModel, AiSdkModel, createOfflineModel } from "@/server/model";
import { actToolNames } from "@/server/model/act-turn";
import { orchestratorWorld } from "@/testing/harness/orchestrator-world";
import { answerStream, type PartialAnswer } from "./answer-stream";

/**
 * The answer path end to end: a real Orchestrator, SQLite, Docker, and the real AI SDK provider talking
 * to the fake model server over HTTP. A Chat-mode question is answered from read-only tool calls (in
 * the log, under the answer), streams while it is written, never creates an intention, and a model
 * that asks for a write is refused before anything reaches the sandbox.
 */
const world = orchestratorWorld({ repoName: "Answerable", fakeModel: true });
const { actor, sandboxes } = world;
const fakeModel = (scenario: string) => world.scriptedModel(scenario);
const orchestrator = (store: EventStore, model: AgentModel) =>
  world.orchestrator({ log: store, model, runningRuns: async () => [] });

async function ask(
  model: AgentModel,
  task: string,
  options: { mode?: "chat" | "agent"; reasoning?: "on" | "off" } = {},
) {
  const store = new EventStore(world.db);
  const orch = orchestrator(store, model);
  const partials: PartialAnswer[] = [];
  const unsubscribe = answerStream.subscribe(world.sessionId, (partial) => partials.push(partial));
  const { runId } = await orch.startRun({
    sessionId: world.sessionId,
    task,
    mode: options.mode ?? "chat",
    ...(options.reasoning ? { reasoning: options.reasoning } : {}),
    actor,
  });
  await orch.idle();
  unsubscribe();
  const events = await store.read(world.sessionId);
  return { runId, events, partials, bodies: events.map((event) => event.body) };
}

function ofType<T extends StoredEvent["body"]["type"]>(bodies: StoredEvent["body"][], type: T) {
  return bodies.filter((body): body is Extract<StoredEvent["body"], { type: T }> => body.type === type);
}

describe("the answer path", () => {
  it("answers a Chat-mode question from read-only tool calls, streamed, with no intention tree", async () => {
    const { bodies, partials } = await ask(fakeModel("default"), "What is in the `Answerable` project?");

    expect(ofType(bodies, "run-started")[0]).toMatchObject({ mode: "chat", reasoning: "off" });
    expect(ofType(bodies, "run-routed")[0]).toMatchObject({ route: "answer" });
    expect(ofType(bodies, "intention-created")).toEqual([]);
    expect(ofType(bodies, "approval-requested")).toEqual([]);

    const tools = ofType(bodies, "answer-tool-called");
    expect(tools.map((call) => [call.tool, call.target, call.status])).toEqual([
      ["fs.search", "Answerable", "ok"],
      ["fs.read", "README.md", "ok"],
    ]);
    expect(tools[1]?.summary).toContain("# Answerable");

    const answer = ofType(bodies, "message-posted").find((message) => message.role === "agent");
    expect(answer?.text).toContain("README.md begins with: # Answerable");
    expect(ofType(bodies, "run-ended")[0]).toMatchObject({ status: "ANSWERED" });

    // Streamed: the page saw the answer grow (a strict prefix first), then the stream closed.
    const growing = partials.filter((partial) => !partial.done).map((partial) => partial.text);
    expect(growing.length).toBeGreaterThan(1);
    expect(growing.some((text) => text.length < (answer?.text.length ?? 0))).toBe(true);
    for (const text of growing) expect(answer?.text.startsWith(text.trim())).toBe(true);
    expect(partials.at(-1)?.done).toBe(true);

    // Every request: the user's mode and switch, and exactly the policy's read-only tools.
    const calls = ofType(bodies, "llm-called");
    expect(calls).toHaveLength(2);
    for (const call of calls) {
      expect(call).toMatchObject({
        stage: "discover",
        mode: "chat",
        reasoning: "off",
        toolCount: 6,
        error: null,
      });
      expect(call.tools).toEqual([...READ_ONLY_TOOLS]);
    }
  }, 60_000);

  it("an answer is never VERIFIED: a model that never writes one fails the run, saying what happened", async () => {
    const { bodies } = await ask(fakeModel("answer-never-ends"), "What is in the `Answerable` project?");
    const ended = ofType(bodies, "run-ended")[0];
    expect(ended).toMatchObject({ status: "FAILED" });
    expect(ended?.reason).toMatch(/^no answer: the model kept calling tools for all \d+ requests allowed/);
    expect(ofType(bodies, "message-posted").filter((message) => message.role === "agent")).toEqual([]);
    expect(ofType(bodies, "message-posted").at(-1)).toMatchObject({ role: "system" });
  });

  it("a model that fails to answer (HTTP 500) fails the Chat run", async () => {
    const { bodies } = await ask(fakeModel("http-500"), "What is in the `Answerable` project?");
    expect(ofType(bodies, "run-ended")[0]).toMatchObject({
      status: "FAILED",
      reason: expect.stringContaining("the model could not answer"),
    });
  });

  it("refuses a write the model asks for in Chat mode: nothing reaches the sandbox", async () => {
    const { bodies } = await ask(fakeModel("answer-tries-write"), "Please explain the project");
    const tools = ofType(bodies, "answer-tool-called");
    expect(tools).toHaveLength(1);
    expect(tools[0]).toMatchObject({ tool: "fs.write", target: "pwned.txt", status: "refused" });
    const answer = ofType(bodies, "message-posted").find((message) => message.role === "agent");
    expect(answer?.text).toContain("fs.write is not available");

    // The refusal happened before the dispatch: no tool ran, so the session never even got a sandbox.
    expect(ofType(bodies, "sandbox-ready")).toEqual([]);
    expect(await sandboxes.get(world.sessionId)).toBeNull();
  }, 60_000);

  it("adds the reasoning instruction when, and only when, the person's switch is on", async () => {
    const before = world.fakeModel.requests.length;
    const { bodies } = await ask(fakeModel("default"), "What is in `README.md`?", { reasoning: "on" });
    const sent = world.fakeModel.requests.slice(before).map((request) => JSON.stringify(request.body));
    expect(sent.length).toBeGreaterThan(0);
    for (const body of sent) expect(body).toContain("<ide_reasoning>");
    for (const call of ofType(bodies, "llm-called"))
      expect(call).toMatchObject({ reasoning: "on", mode: "chat" });

    const off = world.fakeModel.requests.length;
    await ask(fakeModel("default"), "What is in `README.md`?", { reasoning: "off" });
    for (const request of world.fakeModel.requests.slice(off))
      expect(JSON.stringify(request.body)).not.toContain("<ide_reasoning>");
  }, 90_000);

  it("answers an Agent-mode question on the same read-only path, recorded as Agent mode", async () => {
    const { bodies } = await ask(fakeModel("default"), "What does `README.md` say?", { mode: "agent" });
    expect(ofType(bodies, "run-started")[0]).toMatchObject({ mode: "agent" });
    expect(ofType(bodies, "run-routed")[0]?.reason).toContain("the mode stays Agent");
    expect(ofType(bodies, "intention-created")).toEqual([]);
    for (const call of ofType(bodies, "llm-called"))
      expect(call).toMatchObject({ mode: "agent", toolCount: 6 });
  }, 60_000);

  it("carries the switches into the agent's own requests: reasoning instruction, mode and tools recorded", async () => {
    const before = world.fakeModel.requests.length;
    const { bodies } = await ask(fakeModel("default"), "run `echo hello`", {
      mode: "agent",
      reasoning: "on",
    });
    expect(ofType(bodies, "run-routed")[0]).toMatchObject({ route: "loop" });
    expect(ofType(bodies, "run-ended")[0]).toMatchObject({ status: "VERIFIED" });
    const calls = ofType(bodies, "llm-called");
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) expect(call).toMatchObject({ mode: "agent", reasoning: "on", error: null });
    // The act step offers every tool but select_active_intent (the engine selects the intention).
    const offered = actToolNames();
    expect(offered).toContain("fs.write");
    expect(calls.find((call) => call.stage === "act")).toMatchObject({
      tools: offered,
      toolCount: offered.length,
    });
    const sent = world.fakeModel.requests.slice(before);
    expect(sent.length).toBe(calls.length);
    for (const request of sent) expect(JSON.stringify(request.body)).toContain("<ide_reasoning>");
  }, 90_000);

  it("stops at once when the person stops it mid-answer, with no answer stored", async () => {
    const store = new EventStore(world.db);
    const slow = new AiSdkModel({
      baseUrl: world.fakeModel.url,
      modelName: "fake-model",
      timeoutMs: 20_000,
      headers: { "x-fake-scenario": "slow", "x-fake-delay-ms": "10000" },
    });
    const orch = orchestrator(store, slow);
    const { runId } = await orch.startRun({
      sessionId: world.sessionId,
      task: "What is this?",
      mode: "chat",
      actor,
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = Date.now();
    await orch.stop(world.sessionId, runId, actor);
    expect(Date.now() - started).toBeLessThan(3_000);
    const bodies = (await store.read(world.sessionId)).map((event) => event.body);
    expect(ofType(bodies, "run-ended")).toEqual([
      { type: "run-ended", runId, status: "STOPPED", reason: "stopped by Ada" },
    ]);
    expect(ofType(bodies, "message-posted").filter((message) => message.role === "agent")).toEqual([]);
  }, 60_000);

  it("on the offline model, says it cannot really answer and lists the files that match the question", async () => {
    const { bodies } = await ask(createOfflineModel(), "Where is Answerable mentioned?");
    expect(ofType(bodies, "answer-tool-called").map((call) => [call.tool, call.target])).toEqual([
      ["fs.search", "answerable"],
      ["fs.search", "mentioned"],
    ]);
    const answer = ofType(bodies, "message-posted").find((message) => message.role === "agent");
    expect(answer?.text).toContain("Built-in offline model — not a real answer.");
    expect(answer?.text).toContain('Files mentioning "answerable": README.md');
    expect(ofType(bodies, "llm-called")[0]).toMatchObject({ offline: true, mode: "chat", toolCount: 6 });
  }, 60_000);
});
