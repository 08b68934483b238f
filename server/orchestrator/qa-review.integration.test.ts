import { describe, expect, it } from "vitest";
import { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import { foldEvents } from "@/server/domain/session/fold";
import { READ_ONLY_TOOLS } from "@/server/domain/tools/catalogue";
import { EventStore } from "@/server/events/store";
import { ofType } from "@/testing/events/events";
import { orchestratorWorld } from "@/testing/harness/orchestrator-world";

/**
 * Advisory QA and the delivery gate with every real part: SQLite, the Docker sandbox, and the AI SDK
 * over HTTP to the fake model server, whose reviewer fails work marked "(qa-fail)". QA must change no
 * status, must be offered read-only tools only, and its findings reach the next sibling's act turn.
 */
const world = orchestratorWorld({ repoName: "Reviewed", fakeModel: true });
const { actor } = world;

const qaOn = (qaFeedback: boolean) =>
  CheckpointPolicy.parse({ decompositions: "auto", qaReview: "on", qaFeedback });

interface WireBody {
  messages?: { role: string; content?: unknown }[];
  tools?: { function?: { name?: string } }[];
}
const toolNamesOf = (body: unknown) =>
  ((body as WireBody).tools ?? []).map((tool) => tool.function?.name ?? "");

describe("advisory QA with Docker, SQLite and the fake model server", () => {
  it("reviews each verified intention read-only; a QA fail changes no status and the gate stays DONE", async () => {
    const before = world.fakeModel.requests.length;
    const orch = world.orchestrator({
      model: world.scriptedModel("default"),
      checkpointsOf: async () => qaOn(true),
    });
    const task = "run `ls` and then run `pwd` (qa-fail)";
    const { runId } = await orch.startRun({ sessionId: world.sessionId, task, mode: "agent", actor });
    await world.approveUntilEnded(orch, runId);
    const events = await new EventStore(world.db).read(world.sessionId);
    const view = foldEvents(events);
    const run = view.runs[runId];
    expect(run?.status).toBe("VERIFIED");
    const intentions = Object.values(view.intentions).filter((intention) => intention.runId === runId);
    expect(intentions).toHaveLength(3);
    // Every intention verified and reviewed, every review a "fail": advice, not a verdict.
    for (const intention of intentions) {
      expect(intention.status).toBe("VERIFIED");
      expect(intention.qaReports).toHaveLength(1);
      expect(intention.qaReports[0]).toMatchObject({
        report: {
          verdict: "fail",
          findings: [expect.objectContaining({ severity: "high", file: "README.md" })],
        },
        tools: [...READ_ONLY_TOOLS],
        reads: [expect.stringContaining("git.diff")],
        offline: false,
      });
    }
    // The gate: DONE by the root's verification, and the root's later QA "fail" did not undo it.
    expect(run?.delivery).toMatchObject({ status: "DONE", doneBy: "verification" });
    const reports = ofType(events, "delivery-reported");
    // Then, last, the model's delivery check (it agrees: the request verified).
    expect(reports).toEqual([
      expect.objectContaining({ state: "DONE", source: "verification" }),
      expect.objectContaining({ state: "DONE", source: "delivery_check", modelState: "DONE" }),
    ]);
    const seqOf = (type: string) =>
      events.filter((event) => event.body.type === type).map((event) => event.seq);
    const rootId = run?.rootId ?? "";
    const rootReview = events.find(
      (event) => event.body.type === "qa-reported" && event.body.intentionId === rootId,
    );
    expect(rootReview?.seq).toBeGreaterThan(seqOf("delivery-reported")[0] ?? Number.POSITIVE_INFINITY);
    expect(run?.deliveryReports.at(-2)).toMatchObject({
      source: "qa_review",
      state: "NEEDS_WORK",
      moved: false,
    });

    // What the fake server received: every reviewer request offered the read-only tools and the report tool.
    const sent = world.fakeModel.requests.slice(before).map((request) => request.body);
    const reviews = sent.filter((body) => toolNamesOf(body).includes("submit_qa_report"));
    expect(reviews.length).toBeGreaterThanOrEqual(3);
    for (const body of reviews) {
      expect(toolNamesOf(body).sort()).toEqual(
        [...READ_ONLY_TOOLS.map((name) => name.replace(".", "_")), "submit_qa_report"].sort(),
      );
    }
    // The calls are recorded as qa_review requests with their read-only tools.
    const qaCalls = ofType(events, "llm-called").filter((call) => call.stage === "qa_review");
    expect(qaCalls).toHaveLength(3);
    expect(qaCalls.every((call) => call.error === null && call.toolCount === READ_ONLY_TOOLS.length)).toBe(
      true,
    );

    // Feedback: the second child's act turn read what QA said about the first.
    const actSystems = sent
      .filter((body) => toolNamesOf(body).includes("shell_exec"))
      .map((body) => JSON.stringify((body as WireBody).messages?.[0] ?? ""));
    expect(actSystems).toHaveLength(2);
    expect(actSystems[0]).not.toContain("QA said");
    expect(actSystems[1]).toContain("QA said");
    expect(actSystems[1]).toContain("the change is not what the reviewer wanted");
  });

  it("with QA off: no review, no qa_review call, the gate still DONE", async () => {
    const before = world.fakeModel.requests.length;
    const orch = world.orchestrator({
      model: world.scriptedModel("default"),
      checkpointsOf: async () => CheckpointPolicy.parse({ decompositions: "auto" }),
    });
    const { runId } = await orch.startRun({
      sessionId: world.sessionId,
      task: "run `ls`",
      mode: "agent",
      actor,
    });
    await world.approveUntilEnded(orch, runId);
    const view = await world.view();
    expect(view.runs[runId]).toMatchObject({ status: "VERIFIED", delivery: { status: "DONE" } });
    expect(Object.values(view.intentions).every((intention) => intention.qaReports.length === 0)).toBe(true);
    const sent = world.fakeModel.requests.slice(before).map((request) => request.body);
    expect(sent.some((body) => toolNamesOf(body).includes("submit_qa_report"))).toBe(false);
  });

  it("the offline model reviews by heuristics: it reads the new file through the dispatch and flags its TODO", async () => {
    const orch = world.orchestrator({ checkpointsOf: async () => qaOn(false) });
    const task = "create `notes.txt` containing `TODO write the notes`";
    const { runId } = await orch.startRun({ sessionId: world.sessionId, task, mode: "agent", actor });
    await world.approveUntilEnded(orch, runId);
    const view = await world.view();
    const run = view.runs[runId];
    expect(run).toMatchObject({ status: "VERIFIED", delivery: { status: "DONE" } });
    const root = view.intentions[run?.rootId ?? ""];
    expect(root?.status).toBe("VERIFIED");
    expect(root?.qaReports).toEqual([
      expect.objectContaining({
        offline: true,
        modelId: "offline-heuristics",
        reads: ["git.diff", "git.status", "fs.read notes.txt"],
        report: expect.objectContaining({
          verdict: "concerns",
          findings: expect.arrayContaining([
            expect.objectContaining({
              severity: "low",
              file: "notes.txt",
              message: "an added line leaves a TODO/FIXME marker",
            }),
          ]),
        }),
      }),
    ]);
  });
});
