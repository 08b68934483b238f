import { describe, expect, it } from "vitest";
import { foldEvents } from "@/server/domain/session/fold";
import { EventStore } from "@/server/events/store";
import { AiSdkModel, createOfflineModel } from "@/server/model";
import type { AgentModel } from "@/server/model/types";
import { orchestratorWorld } from "@/testing/harness/orchestrator-world";
import type { Orchestrator } from "./orchestrator";

/**
 * The orchestrator with every real part: SQLite, the Docker engine, and the AI SDK talking HTTP to the
 * fake model server. A second Orchestrator over the same database stands in for a restarted server.
 */
const world = orchestratorWorld({ repoName: "Orchestrated", fakeModel: true });
const { actor } = world;
const orchestrator = (model: AgentModel) => world.orchestrator({ model });
const approveUntilEnded = (orch: Orchestrator, runId: string) => world.approveUntilEnded(orch, runId);
const realModel = () =>
  new AiSdkModel({ baseUrl: world.fakeModel.url, modelName: "fake", timeoutMs: 10_000 });
const waitForPendingApproval = () => world.waitForApproval();

describe("Orchestrator with Docker, SQLite and the fake model server", () => {
  it("decomposes, waits for approval, runs each child in the sandbox and verifies the run", async () => {
    const orch = orchestrator(realModel());
    const { runId } = await orch.startRun({
      sessionId: world.sessionId,
      task: "run `cat /etc/arbor-sandbox` and then run `ls README.md`",
      mode: "agent",
      actor,
    });
    const approval = await waitForPendingApproval();
    await orch.decide({
      sessionId: world.sessionId,
      approvalId: approval.id,
      decision: "approved",
      reason: null,
      actor,
    });
    await orch.idle();

    const store = new EventStore(world.db);
    const view = foldEvents(await store.read(world.sessionId));
    expect(view.runs[runId]).toMatchObject({ status: "VERIFIED", model: { offline: false } });
    const children = Object.values(view.intentions).filter((intention) => intention.depth === 1);
    expect(children.map((child) => child.status)).toEqual(["VERIFIED", "VERIFIED"]);
    expect(children[0]?.cycles[0]?.output).toContain("arbor-sandbox");
    expect(children[1]?.cycles[0]?.output).toContain("README.md");
    const stages = (await store.read(world.sessionId)).flatMap((event) =>
      event.body.type === "llm-called" ? [event.body.stage] : [],
    );
    // The request read, the root's checks asked for (its acceptance names none), one plan, one action
    // per child (their acceptance names a command: no contract call), then the delivery check.
    expect(stages).toEqual(["discover", "contract", "decompose", "act", "act", "delivery_check"]);
    expect(world.fakeModel.requests.length).toBeGreaterThanOrEqual(3);
  });

  it("works a two-level decomposition: a compound child is decomposed again, with a second approval", async () => {
    const orch = orchestrator(realModel());
    const task = "run `echo top > top.txt` and {run `echo b > b.txt` and run `cat top.txt b.txt`}";
    const { runId } = await orch.startRun({ sessionId: world.sessionId, task, mode: "agent", actor });
    const answered = await approveUntilEnded(orch, runId);
    expect(answered).toEqual(["decomposition", "command", "decomposition", "command"]);

    const view = foldEvents(await new EventStore(world.db).read(world.sessionId));
    expect(view.runs[runId]?.status).toBe("VERIFIED");
    const byDepth = (depth: number) =>
      Object.values(view.intentions).filter((intention) => intention.depth === depth);
    expect(byDepth(1).map((intention) => intention.what)).toEqual([
      "run `echo top > top.txt`",
      "run `echo b > b.txt` and run `cat top.txt b.txt`",
    ]);
    expect(byDepth(2).map((intention) => intention.status)).toEqual(["VERIFIED", "VERIFIED"]);
    expect(byDepth(1)[1]?.decisions[0]).toMatchObject({
      decision: "decompose",
      reason: expect.stringContaining("compound"),
    });
    // The grandchild reads a file its cousin wrote: one workspace for the whole run.
    expect(byDepth(2)[1]?.cycles[0]?.output).toBe("top\nb\n");
    expect(byDepth(2)[1]?.contract).toEqual([{ kind: "TESTS_PASS", command: "cat top.txt b.txt" }]);
  });

  it("retries a failing child, finds it cannot be split, and fails the run with no intention ACTIVE", async () => {
    const orch = orchestrator(createOfflineModel());
    const { runId } = await orch.startRun({
      sessionId: world.sessionId,
      task: "run `false` and then run `echo unreachable`",
      mode: "agent",
      actor,
    });
    const approval = await waitForPendingApproval();
    await orch.decide({
      sessionId: world.sessionId,
      approvalId: approval.id,
      decision: "approved",
      reason: null,
      actor,
    });
    await orch.idle();
    const run = await world.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run.status).toBe("FAILED");
    expect(run.reason).toContain("2 failed cycles (last: exit code 1)");
    expect(run.reason).toContain("cannot be decomposed further");
    expect(await world.db.cycle.count({ where: { runId } })).toBe(2);
    expect(await world.db.intention.count({ where: { runId, status: "ACTIVE" } })).toBe(0);
  });

  it("keeps a pending approval across a restart and continues when it is answered", async () => {
    const before = orchestrator(createOfflineModel());
    const { runId } = await before.startRun({
      sessionId: world.sessionId,
      task: "run `echo one` and then run `echo two`",
      mode: "agent",
      actor,
    });
    const approval = await waitForPendingApproval();

    // A new orchestrator over the same database: what a server restart leaves.
    const after = orchestrator(createOfflineModel());
    expect(await after.resumeInterrupted()).toBe(1);
    expect((await world.db.approval.findUniqueOrThrow({ where: { id: approval.id } })).status).toBe(
      "PENDING",
    );
    await after.decide({
      sessionId: world.sessionId,
      approvalId: approval.id,
      decision: "approved",
      reason: null,
      actor,
    });
    await after.idle();
    expect((await world.db.run.findUniqueOrThrow({ where: { id: runId } })).status).toBe("VERIFIED");
    await before.stop(world.sessionId, runId);
  });

  it("stops a run waiting for approval and fails its open intentions with the reason", async () => {
    const orch = orchestrator(createOfflineModel());
    const { runId } = await orch.startRun({
      sessionId: world.sessionId,
      task: "run `echo a` and then run `echo b`",
      mode: "agent",
      actor,
    });
    await waitForPendingApproval();
    await orch.stop(world.sessionId, runId);
    const run = await world.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect([run.status, run.reason]).toEqual(["STOPPED", "stopped by the user"]);
    expect(await world.db.intention.count({ where: { runId, status: { in: ["ACTIVE", "PENDING"] } } })).toBe(
      0,
    );
  });

  it("refuses a second run while one is going, and an approval answered twice", async () => {
    const orch = orchestrator(createOfflineModel());
    await orch.startRun({
      sessionId: world.sessionId,
      task: "run `echo a` and then run `echo b`",
      mode: "agent",
      actor,
    });
    await expect(
      orch.startRun({ sessionId: world.sessionId, task: "again", mode: "agent", actor }),
    ).rejects.toThrow("already in progress");
    const approval = await waitForPendingApproval();
    await orch.decide({
      sessionId: world.sessionId,
      approvalId: approval.id,
      decision: "rejected",
      reason: "no",
      actor,
    });
    await expect(
      orch.decide({
        sessionId: world.sessionId,
        approvalId: approval.id,
        decision: "approved",
        reason: null,
        actor,
      }),
    ).rejects.toThrow("already answered");
    await orch.idle();
  });
});
