import { describe, expect, it } from "vitest";
import { DEFAULT_CHECKPOINTS, READ_ONLY_COMMANDS } from "@/server/domain/policy/checkpoints";
import { EventStore } from "@/server/events/store";
import { orchestratorWorld } from "@/testing/harness/orchestrator-world";

/**
 * The model in seed 000's understanding steps, end to end: the run's model (the real AI SDK provider
 * code over HTTP to the fake server) reads the request and writes the checks of an intention whose
 * acceptance names none; the checks run in the real sandbox and decide the verdict.
 */
const world = orchestratorWorld({ repoName: "Understood", fakeModel: true });

describe("intent discovery and contracts by the model", () => {
  it("the model reads the request and writes the check that verifies the work", async () => {
    const orch = world.orchestrator({ model: world.scriptedModel("default") });
    const task = "create `notes.txt` containing `hello from the model`";
    const { runId } = await orch.startRun({
      sessionId: world.sessionId,
      task,
      mode: "agent",
      actor: world.actor,
    });
    const answered = await world.approveUntilEnded(orch, runId);
    expect(answered).toContain("tool");

    const view = await world.view();
    const run = view.runs[runId];
    expect(run?.status).toBe("VERIFIED");
    expect(run?.intent?.prompt).toMatchObject({
      kind: "create",
      source: "model",
      targets: ["notes.txt", "hello from the model"],
    });
    const root = view.intentions[run?.rootId ?? ""];
    expect(root?.contractBy).toEqual({ source: "model", dropped: [], generatedTest: null });
    expect(root?.contract).toEqual([
      { kind: "FILE_CONTAINS", path: "notes.txt", text: "hello from the model" },
    ]);

    const events = (await new EventStore(world.db).read(world.sessionId)).map((event) => event.body);
    const stages = events.flatMap((body) => (body.type === "llm-called" ? [body.stage] : []));
    expect(stages.slice(0, 2)).toEqual(["discover", "contract"]);
    expect(events.filter((body) => body.type === "llm-called" && body.error !== null)).toEqual([]);
    // The model's check ran in the sandbox after the write, and it is what made the cycle a success.
    const checked = events.find((body) => body.type === "criteria-checked");
    expect(checked).toMatchObject({
      results: [{ passed: true, evidence: expect.stringContaining("notes.txt") }],
    });
  });

  it("a model that cannot answer leaves the heuristics' reading and the exit code, with the failures logged", async () => {
    const orch = world.orchestrator({
      model: world.scriptedModel("always-malformed"),
      sleep: async () => {},
    });
    const { runId } = await orch.startRun({
      sessionId: world.sessionId,
      task: "run `true`",
      mode: "agent",
      actor: world.actor,
    });
    await world.approveUntilEnded(orch, runId);
    const view = await world.view();
    expect(view.runs[runId]?.intent?.prompt.source).toBe("heuristics");
    const events = (await new EventStore(world.db).read(world.sessionId)).map((event) => event.body);
    const discover = events.filter((body) => body.type === "llm-called" && body.stage === "discover");
    expect(discover.at(-1)).toMatchObject({
      error: expect.stringContaining("the heuristics read the request"),
    });
  });

  it("test first: the generated test is written (approved by a person) before the work, red, then green", async () => {
    // The project lets `sh` run unasked, so the generated test's command may be a check.
    const allowCommands = [...READ_ONLY_COMMANDS, { program: "sh", args: [] }];
    const orch = world.orchestrator({
      model: world.scriptedModel("test-first"),
      checkpointsOf: async () => ({ ...DEFAULT_CHECKPOINTS, allowCommands }),
    });
    const task = "create `notes.txt` containing `hello first`";
    const { runId } = await orch.startRun({
      sessionId: world.sessionId,
      task,
      mode: "agent",
      actor: world.actor,
    });
    await world.approveUntilEnded(orch, runId);

    const view = await world.view();
    expect(view.runs[runId]?.status).toBe("VERIFIED");
    const root = view.intentions[view.runs[runId]?.rootId ?? ""];
    const testPath = "tests/notes.txt.check.sh";
    expect(root?.contract).toEqual([
      { kind: "GENERATED_TEST_PASSES", path: testPath, command: `sh ${testPath}` },
    ]);
    const [first, second] = root?.cycles ?? [];
    // The first cycle wrote the test (no model call chose it), which failed: the file was not there yet.
    expect(first).toMatchObject({
      testFirst: true,
      action: { tool: "fs.write", target: testPath },
      judgment: "PARTIAL",
    });
    expect(first?.checks?.[0]).toMatchObject({ passed: false });
    expect(second).toMatchObject({ testFirst: false, action: { target: "notes.txt" }, judgment: "SUCCESS" });
    expect(second?.checks?.[0]).toMatchObject({ passed: true });
  });
});
