import { describe, expect, it } from "vitest";
import { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import { foldEvents } from "@/server/domain/session/fold";
import { EventStore } from "@/server/events/store";
import { ofType } from "@/testing/events/events";
import { DELIVERY_MISSING_ITEM, DELIVERY_NEEDS_WORK_MARK } from "@/testing/fake-model/delivery-replies";
import { orchestratorWorld } from "@/testing/harness/orchestrator-world";

/**
 * The delivery check with every real part: SQLite, the Docker sandbox, and the AI SDK over HTTP to the
 * fake model server, whose check says NEEDS_WORK (with a missing item) for requests marked
 * "(delivery-needs-work)". The request offers no workspace tool, only `submit_delivery`; the model's
 * NEEDS_WORK is recorded next to the verification's DONE, which it cannot undo.
 */
const world = orchestratorWorld({ repoName: "Delivered", fakeModel: true });
const { actor } = world;

interface WireBody {
  messages?: { role: string; content?: unknown }[];
  tools?: { function?: { name?: string } }[];
}
const toolNamesOf = (body: unknown) =>
  ((body as WireBody).tools ?? []).map((tool) => tool.function?.name ?? "");

async function run(task: string) {
  const before = world.fakeModel.requests.length;
  const orch = world.orchestrator({
    model: world.scriptedModel("default"),
    checkpointsOf: async () => CheckpointPolicy.parse({ decompositions: "auto" }),
  });
  const { runId } = await orch.startRun({ sessionId: world.sessionId, task, mode: "agent", actor });
  await world.approveUntilEnded(orch, runId);
  const events = (await new EventStore(world.db).read(world.sessionId)).filter(
    (event) => "runId" in event.body && event.body.runId === runId,
  );
  const sent = world.fakeModel.requests.slice(before).map((request) => request.body);
  return { runId, events, view: foldEvents(await new EventStore(world.db).read(world.sessionId)), sent };
}

describe("the delivery check with Docker, SQLite and the fake model server", () => {
  it("asks the run's model with no workspace tools; its NEEDS_WORK shows next to the verification's DONE", async () => {
    const { runId, events, view, sent } = await run(
      `run \`ls\` and then run \`pwd\` ${DELIVERY_NEEDS_WORK_MARK}`,
    );
    const current = view.runs[runId];
    expect(current?.status).toBe("VERIFIED");
    expect(current?.delivery).toMatchObject({ status: "DONE", doneBy: "verification" });
    expect(current?.deliveryReports.at(-1)).toMatchObject({
      source: "delivery_check",
      state: "NEEDS_WORK",
      modelState: "NEEDS_WORK",
      missing: [DELIVERY_MISSING_ITEM],
      moved: false,
      fallback: null,
      modelId: expect.stringContaining("openai-compatible:"),
    });

    // One request, with the answer tool alone, the stage prompt and the tree's outcome in it.
    const checks = sent.filter((body) => toolNamesOf(body).includes("submit_delivery"));
    expect(checks).toHaveLength(1);
    expect(toolNamesOf(checks[0])).toEqual(["submit_delivery"]);
    const text = JSON.stringify((checks[0] as WireBody).messages);
    expect(text).toContain("This step: is the request delivered?");
    expect(text).toMatch(/- VERIFIED: run `ls` and then run `pwd`/);
    expect(text).toMatch(/ {2}VERIFIED: run `pwd`/);

    const calls = ofType(events, "llm-called").filter((call) => call.stage === "delivery_check");
    expect(calls).toEqual([expect.objectContaining({ error: null, offline: false, toolCount: 0 })]);
  });

  it("agrees with a verified request: its DONE is recorded, the gate stays DONE by the verification", async () => {
    const { runId, view } = await run("run `ls`");
    const current = view.runs[runId];
    expect(current?.delivery).toMatchObject({ status: "DONE", doneBy: "verification" });
    expect(current?.deliveryReports.map((entry) => [entry.source, entry.state])).toEqual([
      ["verification", "DONE"],
      ["delivery_check", "DONE"],
    ]);
  });
});
