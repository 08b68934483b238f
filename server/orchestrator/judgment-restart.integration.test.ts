import { describe, expect, it } from "vitest";
import { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import { foldEvents } from "@/server/domain/session/fold";
import { EventStore } from "@/server/events/store";
import { orchestratorWorld } from "@/testing/harness/orchestrator-world";

/**
 * judge_action asked of a person, with every real part (SQLite, Docker): the question survives a
 * restart (a second Orchestrator over the same database), the action is not run again, and the
 * person's override is what the log records.
 */
const world = orchestratorWorld({ repoName: "Judged" });
const { actor } = world;
const orchestrator = () =>
  world.orchestrator({
    checkpointsOf: async () => CheckpointPolicy.parse({ commands: "never-ask", judgeAction: "ask" }),
  });

async function pendingApproval() {
  for (let i = 0; i < 400; i++) {
    const approval = await world.db.approval.findFirst({
      where: { sessionId: world.sessionId, status: "PENDING" },
    });
    if (approval) return approval;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("no approval was requested");
}

describe("judge_action across a restart", () => {
  it("keeps the question pending, never re-runs the action, and records the person's override", async () => {
    const before = orchestrator();
    const { runId } = await before.startRun({
      sessionId: world.sessionId,
      task: "run `echo once`",
      mode: "agent",
      actor,
    });
    const first = await pendingApproval();
    expect(first.kind).toBe("judgment");

    const after = orchestrator();
    expect(await after.resumeInterrupted()).toBe(1);
    expect((await world.db.approval.findUniqueOrThrow({ where: { id: first.id } })).status).toBe("PENDING");
    await after.decide({
      sessionId: world.sessionId,
      approvalId: first.id,
      decision: "rejected",
      reason: "not yet",
      answer: { question: "judge_action", judgment: "FAILURE" },
      actor,
    });
    // The override is a miss: the agent acts again and asks again; this time the person confirms.
    let second = await pendingApproval();
    while (second.id === first.id) second = await pendingApproval();
    await after.decide({
      sessionId: world.sessionId,
      approvalId: second.id,
      decision: "approved",
      reason: null,
      actor,
    });
    await after.idle();

    const view = foldEvents(await new EventStore(world.db).read(world.sessionId));
    expect(view.runs[runId]?.status).toBe("VERIFIED");
    const cycles = Object.values(view.intentions).flatMap((intention) => intention.cycles);
    expect(cycles.map((cycle) => [cycle.judgment, cycle.judgedBy])).toEqual([
      ["FAILURE", "Ada"],
      ["SUCCESS", "Ada"],
    ]);
    // The auto proposal includes the contract check (issue #15: the check runs through the door).
    expect(cycles[0]?.judgmentReason).toBe(
      "Ada overrode SUCCESS with FAILURE: not yet (auto: exit code 0 and all 1 contract criteria hold)",
    );
    const judgedRows = await world.db.cycle.findMany({ where: { runId }, orderBy: { index: "asc" } });
    expect(judgedRows.map((row) => row.judgedBy)).toEqual(["Ada", "Ada"]);
    await before.stop(world.sessionId, runId);
  });
});
