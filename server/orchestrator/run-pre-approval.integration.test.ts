import { describe, expect, it } from "vitest";
import { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import type { IntentionView } from "@/server/domain/session/view";
import { EventStore } from "@/server/events/store";
import { orchestratorWorld } from "@/testing/harness/orchestrator-world";
import { grantRunPreApproval } from "./run-grants";

/**
 * Seed 004's batch pre-approval for one run, end to end (SQLite, Docker, the offline model): a person
 * approves a write and "all file changes for the rest of this run"; the next write passes without a
 * card and its gate names who granted it; a delete still asks for confirmation; the next run asks again.
 */
const world = orchestratorWorld({ repoName: "Run pre-approval" });
const { actor } = world;
// Decompositions approved automatically grant no scope, so without the run's grant every write asks.
const orchestrator = () =>
  world.orchestrator({
    checkpointsOf: async () => CheckpointPolicy.parse({ decompositions: "auto", commands: "never-ask" }),
  });

const children = (intentions: Record<string, IntentionView>, runId: string) =>
  Object.values(intentions)
    .filter((intention) => intention.runId === runId && intention.depth === 1)
    .sort((a, b) => a.position - b.position);

describe("pre-approving file changes for the rest of one run", () => {
  it("lets the run's later writes through, still asks for a delete, and never reaches the next run", async () => {
    const orch = orchestrator();
    const task =
      "create `a.txt` containing `one` and then create `b.txt` containing `two` and then delete `a.txt`";
    const { runId } = await orch.startRun({ sessionId: world.sessionId, task, mode: "agent", actor });

    const first = await world.waitForApproval("tool");
    // Only the card's own category, and only with an approval.
    await expect(
      orch.decide({
        sessionId: world.sessionId,
        approvalId: first.id,
        decision: "approved",
        reason: null,
        actor,
        preApproveRun: ["git-write"],
      }),
    ).rejects.toThrow(/only write changes/);
    await expect(
      orch.decide({
        sessionId: world.sessionId,
        approvalId: first.id,
        decision: "rejected",
        reason: null,
        actor,
        preApproveRun: ["write"],
      }),
    ).rejects.toThrow(/Only approving/);
    await orch.decide({
      sessionId: world.sessionId,
      approvalId: first.id,
      decision: "approved",
      reason: null,
      actor,
      preApproveRun: ["write"],
    });

    // The second write passes by the run's grant; the delete is dangerous and still asks.
    const deletion = await world.waitForApproval("tool");
    let view = await world.view();
    expect(view.approvals[deletion.id]).toMatchObject({
      call: { tool: "fs.delete", input: { path: "a.txt" } },
      confirm: true,
    });
    expect(view.runs[runId]?.preApproved).toEqual([
      { category: "write", grantedBy: actor.name, approvalId: first.id },
    ]);
    const [writeA, writeB] = children(view.intentions, runId);
    expect(writeA?.cycles[0]?.approvalId).toBe(first.id);
    expect(writeB?.cycles[0]).toMatchObject({
      approvalId: null,
      gate: { decision: "approve", reason: `write tools are pre-approved for this run by ${actor.name}.` },
    });
    await orch.decide({
      sessionId: world.sessionId,
      approvalId: deletion.id,
      decision: "approved",
      reason: null,
      actor,
    });
    await orch.idle();
    view = await world.view();
    // Issue #15: the two writes are verified by their checks; "delete `a.txt`" names nothing a check
    // can test (there is no "file is absent" criterion yet), so it is "no check — not verified".
    const deleteA = children(view.intentions, runId)[2];
    expect(writeA && view.intentions[writeA.id]?.status).toBe("VERIFIED");
    expect(writeB && view.intentions[writeB.id]?.status).toBe("VERIFIED");
    expect(deleteA?.reason).toContain("no check — not verified");
    expect(view.runs[runId]?.status).toBe("FAILED");

    // The next run of the same session starts without the grant: its write asks again.
    const next = await orch.startRun({
      sessionId: world.sessionId,
      task: "create `c.txt` containing `three`",
      mode: "agent",
      actor,
    });
    const again = await world.waitForApproval("tool");
    view = await world.view();
    expect(view.approvals[again.id]?.runId).toBe(next.runId);
    expect(view.runs[next.runId]?.preApproved).toEqual([]);
    await orch.stop(world.sessionId, next.runId, actor);
  });

  it("a grant from the session bar before the first card lets the run's writes through; an ended run refuses one", async () => {
    // Decompositions ask: the run waits on its split, and the person grants file changes meanwhile.
    const orch = world.orchestrator({
      checkpointsOf: async () => CheckpointPolicy.parse({ commands: "never-ask" }),
    });
    const task = "create `d.txt` containing `four` and then create `e.txt` containing `five`";
    const { runId } = await orch.startRun({ sessionId: world.sessionId, task, mode: "agent", actor });
    const split = await world.waitForApproval("decomposition");
    const log = new EventStore(world.db);
    await grantRunPreApproval(log, { sessionId: world.sessionId, runId, categories: ["write"], actor });
    await orch.decide({
      sessionId: world.sessionId,
      approvalId: split.id,
      decision: "approved",
      reason: null,
      actor,
    });
    await orch.idle();
    const view = await world.view();
    expect(view.runs[runId]).toMatchObject({
      status: "VERIFIED",
      preApproved: [{ category: "write", grantedBy: actor.name, approvalId: null }],
    });
    expect(Object.values(view.approvals).filter((approval) => approval.runId === runId)).toHaveLength(1);
    for (const intention of children(view.intentions, runId))
      expect(intention.cycles[0]?.gate?.reason).toBe(
        `write tools are pre-approved for this run by ${actor.name}.`,
      );
    await expect(
      grantRunPreApproval(log, { sessionId: world.sessionId, runId, categories: ["git-write"], actor }),
    ).rejects.toThrow(/has ended/);
  });
});
