import { describe, expect, it } from "vitest";
import type { StoredEvent } from "@/server/domain/events/schema";
import { READ_ONLY_TOOLS } from "@/server/domain/tools/catalogue";
import { EventStore } from "@/server/events/store";
import type { AgentModel } from "@/server/model";
import { WARMUP_ANALYSIS_MARK, WARMUP_READ_MARK } from "@/testing/fake-model/warmup-replies";
import { orchestratorWorld } from "@/testing/harness/orchestrator-world";

/**
 * The reasoning switch and the correction prompts in the live loop: a real Orchestrator, SQLite,
 * Docker, and the real AI SDK provider talking to the fake model server over HTTP. What the model
 * received is read from the fake server's own record of each request.
 */
const world = orchestratorWorld({ repoName: "Reasoned", fakeModel: true });

type Body = StoredEvent["body"];
function ofType<T extends Body["type"]>(bodies: Body[], type: T) {
  return bodies.filter((body): body is Extract<Body, { type: T }> => body.type === type);
}

async function work(model: AgentModel, task: string, reasoning: "on" | "off") {
  const store = new EventStore(world.db);
  const orch = world.orchestrator({ log: store, model, runningRuns: async () => [] });
  const before = world.fakeModel.requests.length;
  const { runId } = await orch.startRun({
    sessionId: world.sessionId,
    task,
    mode: "agent",
    reasoning,
    actor: world.actor,
  });
  await orch.idle();
  const bodies = (await store.read(world.sessionId)).map((event) => event.body);
  const sent = world.fakeModel.requests
    .slice(before)
    .filter((request) => request.path === "/v1/chat/completions")
    .map((request) => request.body as { messages: { role: string; content: unknown }[]; tools?: unknown[] });
  const system = (body: (typeof sent)[number]) =>
    String(body.messages.find((m) => m.role === "system")?.content ?? "");
  return { runId, bodies, sent, system };
}

const toolNames = (body: { tools?: unknown[] } | undefined) =>
  ((body?.tools ?? []) as { function?: { name?: string } }[]).map((tool) => tool.function?.name ?? "");

describe("the reasoning switch in the loop", () => {
  it("on: one warmup first, stored in full; later requests get only its compact outcome; each cycle's reflection is stored", async () => {
    const { bodies, sent, system } = await work(world.scriptedModel("default"), "run `echo warm`", "on");
    expect(ofType(bodies, "run-ended")[0]).toMatchObject({ status: "VERIFIED" });

    // The first request after reading the request (intent discovery; it and the contract request have
    // their own tests) is the warmup: the read-only tools, the macro reasoning prompt, the request.
    // The delivery check at the end judges the tree's outcome, not the plan (its own tests).
    const understanding = (body: (typeof sent)[number]) =>
      JSON.stringify(body.tools ?? []).match(/"(report_intent|propose_contract|submit_delivery)"/) !== null;
    const [warmup, ...later] = sent.filter((body) => !understanding(body));
    expect(toolNames(warmup)).toEqual(READ_ONLY_TOOLS.map((name) => name.replace(".", "_")));
    expect(system(warmup ?? { messages: [] })).toContain("This step: plan before acting");
    expect(system(warmup ?? { messages: [] })).toContain("**Analyze**");
    expect(JSON.stringify(warmup?.messages)).toContain("run `echo warm`");
    const calls = ofType(bodies, "llm-called").filter(
      (call) => !["discover", "contract"].includes(call.stage),
    );
    expect(calls[0]).toMatchObject({
      stage: "warmup",
      mode: "agent",
      reasoning: "on",
      toolCount: READ_ONLY_TOOLS.length,
      error: null,
    });

    const [macro] = ofType(bodies, "reasoning-recorded").filter((event) => event.kind === "macro");
    expect(macro?.text).toContain(WARMUP_ANALYSIS_MARK);
    for (const section of ["Analyze", "Research", "Plan", "Reflect", "Action", "Delivery"])
      expect(macro?.text).toContain(`**${section}**`);
    expect(macro?.outcome).toMatchObject({
      plan_delta: "1. run `echo warm`.",
      next_action: "start with run `echo warm`.",
      delivery_state: "NEEDS_WORK",
    });

    // Its closing statement of next steps is said in the chat.
    const said = ofType(bodies, "message-posted").filter((message) => message.role === "agent");
    expect(said[0]?.text).toBe("First I will run `echo warm`.");

    // Every later request: the outcome, never the warmup's full text.
    expect(later.length).toBeGreaterThan(0);
    for (const body of later) {
      const text = JSON.stringify(body);
      expect(text).toContain("Where the reasoning stands");
      expect(text).toContain("plan_delta: 1. run `echo warm`.");
      expect(text).not.toContain(WARMUP_ANALYSIS_MARK);
      expect(system(body)).toContain("<ide_reasoning>");
    }

    // The act turn's reflection: stored with its cycle, 3–8 bullets.
    const micro = ofType(bodies, "reasoning-recorded").filter((event) => event.kind === "micro");
    expect(micro).toHaveLength(1);
    expect(micro[0]).toMatchObject({
      cycleIndex: 0,
      outcome: { next_action: expect.stringContaining("shell_exec") },
    });
    const bullets = (micro[0]?.text ?? "").split("\n").filter((line) => line.startsWith("- "));
    expect(bullets.length).toBeGreaterThanOrEqual(3);
    expect(bullets.length).toBeLessThanOrEqual(8);
  }, 90_000);

  it("on, decomposed: the plan request and each child's act turn carry the newest outcome only", async () => {
    const store = new EventStore(world.db);
    const orch = world.orchestrator({
      log: store,
      model: world.scriptedModel("default"),
      runningRuns: async () => [],
    });
    const before = world.fakeModel.requests.length;
    const task = "run `echo one` and then run `echo two`";
    const { runId } = await orch.startRun({
      sessionId: world.sessionId,
      task,
      mode: "agent",
      reasoning: "on",
      actor: world.actor,
    });
    expect(await world.approveUntilEnded(orch, runId)).toEqual(["decomposition"]);
    const sent = world.fakeModel.requests.slice(before).map((request) => JSON.stringify(request.body));
    const plan = sent.find((body) => body.includes("propose_decomposition"));
    expect(plan).toContain("Where the reasoning stands");
    expect(plan).toContain("1. run `echo one`; 2. run `echo two`");
    const acts = sent.filter((body) => body.includes("shell_exec"));
    expect(acts).toHaveLength(2);
    // The second child's turn carries the first child's reflection, the newest outcome of the run.
    expect(acts[1]).toContain("next_action: shell_exec");
    expect(acts[1]).toContain("echo one");
    for (const body of sent.slice(1)) expect(body).not.toContain(WARMUP_ANALYSIS_MARK);
    const bodies = (await store.read(world.sessionId)).map((event) => event.body);
    expect(ofType(bodies, "reasoning-recorded").map((event) => event.kind)).toEqual([
      "macro",
      "micro",
      "micro",
    ]);
  }, 120_000);

  it("off: no warmup, no reflection, no reasoning instruction or outcome in any request", async () => {
    const { bodies, sent } = await work(world.scriptedModel("default"), "run `echo cold`", "off");
    expect(ofType(bodies, "run-ended")[0]).toMatchObject({ status: "VERIFIED" });
    expect(ofType(bodies, "reasoning-recorded")).toEqual([]);
    expect(ofType(bodies, "llm-called").map((call) => call.stage)).not.toContain("warmup");
    expect(sent.length).toBeGreaterThan(0);
    for (const body of sent) {
      expect(JSON.stringify(body)).not.toContain("<ide_reasoning>");
      expect(JSON.stringify(body)).not.toContain("Where the reasoning stands");
    }
  }, 90_000);

  it("the warmup's research reads the repository through the dispatch, each read logged, capped", async () => {
    const { bodies, sent } = await work(world.scriptedModel("warmup-reads"), "run `echo researched`", "on");
    expect(ofType(bodies, "run-ended")[0]).toMatchObject({ status: "VERIFIED" });
    const warmups = sent.filter((body) =>
      JSON.stringify(body.messages).includes("This step: plan before acting"),
    );
    // One request with the reads, one with their results: the model saw what the listing returned.
    expect(warmups).toHaveLength(2);
    expect(JSON.stringify(warmups[1]?.messages)).toContain("README.md");
    const [macro] = ofType(bodies, "reasoning-recorded").filter((event) => event.kind === "macro");
    expect(macro?.text).toContain(WARMUP_READ_MARK);
    expect(macro?.text).toContain("README.md");
    // Each read went through the one dispatch and is in the log, on the root, before any action.
    const reads = ofType(bodies, "tool-called").filter((call) =>
      ["git.status", "fs.list"].includes(call.tool),
    );
    expect(reads.map((call) => [call.tool, call.status])).toEqual([
      ["git.status", "ok"],
      ["fs.list", "ok"],
    ]);
    const firstAction = bodies.findIndex((body) => body.type === "cycle-started");
    const lastRead = bodies.lastIndexOf(reads.at(-1) as (typeof bodies)[number]);
    expect(lastRead).toBeLessThan(firstAction);
    expect(ofType(bodies, "llm-called").find((call) => call.stage === "warmup")).toMatchObject({
      toolCount: READ_ONLY_TOOLS.length,
      error: null,
    });
  }, 90_000);

  it("the offline model warms up too, from its heuristics", async () => {
    const store = new EventStore(world.db);
    const orch = world.orchestrator({ log: store, runningRuns: async () => [] });
    await orch.startRun({
      sessionId: world.sessionId,
      task: "run `echo offline`",
      mode: "agent",
      reasoning: "on",
      actor: world.actor,
    });
    await orch.idle();
    const bodies = (await store.read(world.sessionId)).map((event) => event.body);
    const reasoning = ofType(bodies, "reasoning-recorded");
    expect(reasoning.map((event) => event.kind)).toEqual(["macro", "micro"]);
    expect(reasoning[0]?.text).toContain("built-in offline model");
    expect(reasoning[0]?.outcome.next_action).toContain("shell.exec `echo offline`");
  }, 90_000);
});

describe("correction prompts, one per kind, without changing the mode", () => {
  it.each([
    ["empty-then-valid", "empty-response", "Your previous answer was empty"],
    ["asks-for-files-then-valid", "asks-for-files", "Nobody will paste files"],
    ["malformed-then-valid", "invalid-tool-call", "Your previous answer could not be used"],
  ])(
    "%s: the re-ask carries the %s correction, and the log names it",
    async (scenario, kind, words) => {
      const { bodies, sent } = await work(world.scriptedModel(scenario), "run `echo again`", "off");
      expect(ofType(bodies, "run-ended")[0]).toMatchObject({ status: "VERIFIED" });
      const reAsk = sent.find((body) => body.messages.filter((m) => m.role === "user").length > 1);
      const lastUser = reAsk?.messages.filter((m) => m.role === "user").at(-1);
      expect(String(lastUser?.content)).toContain(words);
      expect(ofType(bodies, "correction-applied")).toMatchObject([{ kind, stage: "act" }]);
      for (const call of ofType(bodies, "llm-called"))
        expect(call).toMatchObject({ mode: "agent", reasoning: "off" });
    },
    90_000,
  );

  it("failing-tool-then-valid: the retry after a failed command says which tool failed and how", async () => {
    const { bodies, sent } = await work(
      world.scriptedModel("failing-tool-then-valid"),
      "run `echo fixed`",
      "off",
    );
    expect(ofType(bodies, "run-ended")[0]).toMatchObject({ status: "VERIFIED" });
    const judgments = ofType(bodies, "cycle-judged").map((event) => event.judgment);
    expect(judgments).toEqual(["FAILURE", "SUCCESS"]);
    const retry = sent.filter((body) => JSON.stringify(body.tools ?? []).includes("shell_exec")).at(-1);
    const correction = String(retry?.messages.filter((m) => m.role === "user").at(-1)?.content);
    expect(correction).toContain("The last attempt failed");
    expect(correction).toContain("`shell.exec`");
    expect(correction).toContain("no-such-path-for-the-fake");
    expect(ofType(bodies, "correction-applied")).toMatchObject([
      { kind: "failed-tool", prompt: "correct-failed-tool", stage: "act" },
    ]);
    for (const call of ofType(bodies, "llm-called")) expect(call).toMatchObject({ mode: "agent" });
  }, 90_000);
});
