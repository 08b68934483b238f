import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import type { AgentModel } from "@/server/model/types";
import { orchestratorWorld } from "@/testing/harness/orchestrator-world";

/**
 * Tool calls end to end with every real part (SQLite, Docker, the AI SDK over HTTP to the fake model
 * server): the model reads a file inside its turn, then writes or edits it; the person approves with
 * an edited content, and exactly that content lands in the container, where the contract checks it.
 */
const world = orchestratorWorld({ repoName: "Orchestrated", fakeModel: true });
const { actor, sandboxes } = world;
const orchestrator = (model: AgentModel) => world.orchestrator({ model, repoContext: true });
const readingModel = () => world.scriptedModel("read-then-write", "fake");
const waitForPendingApproval = (kind?: string) => world.waitForApproval(kind);

const docker = promisify(execFile);

async function fileInContainer(file: string): Promise<string> {
  const sandbox = await sandboxes.get(world.sessionId);
  if (!sandbox) throw new Error("no sandbox");
  const { stdout } = await docker("docker", ["exec", sandbox.containerName, "cat", `/workspace/${file}`]);
  return stdout;
}

describe("tool calls with approvals, Docker and the fake model server", () => {
  it("reads, writes and edits files; edited approvals land exactly; the contract verifies each", async () => {
    const orch = orchestrator(readingModel());
    const task =
      "create `notes.txt` containing `hello` and then replace `hello` with `goodbye` in `notes.txt`";
    const { runId } = await orch.startRun({ sessionId: world.sessionId, task, mode: "agent", actor });
    const split = await waitForPendingApproval("decomposition");
    await orch.decide({
      sessionId: world.sessionId,
      approvalId: split.id,
      decision: "approved",
      reason: null,
      actor,
    });

    // The write: the person changes the content before approving.
    const write = await waitForPendingApproval("tool");
    let view = await world.view();
    expect(view.approvals[write.id]).toMatchObject({
      kind: "tool",
      call: { tool: "fs.write", input: { path: "notes.txt", content: "hello\n" } },
      preview: null, // the file does not exist yet
    });
    const written = "hello from a person\n";
    await orch.decide({
      sessionId: world.sessionId,
      approvalId: write.id,
      decision: "approved",
      reason: null,
      actor,
      call: { tool: "fs.write", input: { path: "notes.txt", content: written } },
    });

    // The edit: the diff's left side is the file as the person left it; they rewrite the new content.
    const edit = await waitForPendingApproval("tool");
    view = await world.view();
    expect(view.approvals[edit.id]).toMatchObject({
      call: {
        tool: "fs.edit",
        input: { path: "notes.txt", search: "hello", replace: "goodbye", all: false },
      },
      preview: written,
    });
    // An edit may not move the change to another file.
    await expect(
      orch.decide({
        sessionId: world.sessionId,
        approvalId: edit.id,
        decision: "approved",
        reason: null,
        actor,
        call: { tool: "fs.write", input: { path: "other.txt", content: "x" } },
      }),
    ).rejects.toThrow(/cannot change which file/);
    const final = "goodbye, said the person\n";
    await orch.decide({
      sessionId: world.sessionId,
      approvalId: edit.id,
      decision: "approved",
      reason: null,
      actor,
      call: { tool: "fs.write", input: { path: "notes.txt", content: final } },
    });
    await orch.idle();

    expect(await fileInContainer("notes.txt")).toBe(final);
    view = await world.view();
    expect(view.runs[runId]?.status).toBe("VERIFIED");
    const [first, second] = Object.values(view.intentions)
      .filter((intention) => intention.depth === 1)
      .sort((a, b) => a.position - b.position);
    // Each child read the file inside its act turn before acting; the reads are in the log.
    expect(first?.reads).toMatchObject([{ tool: "fs.read", input: "fs.read notes.txt", status: "failed" }]);
    expect(second?.reads).toMatchObject([
      { tool: "fs.read", status: "ok", output: expect.stringContaining("hello from a person") },
    ]);
    expect(first?.cycles[0]).toMatchObject({
      action: { type: "CREATE", tool: "fs.write", target: "notes.txt", content: written },
      gate: { decision: "approve", reason: "approved by Ada (edited)" },
      judgment: "SUCCESS",
      judgmentReason: "fs.write succeeded and all 1 contract criteria hold",
    });
    expect(first?.contract).toEqual([{ kind: "FILE_CONTAINS", path: "notes.txt", text: "hello" }]);
    expect(second?.cycles[0]).toMatchObject({
      action: { type: "EDIT", tool: "fs.write", content: final },
      judgment: "SUCCESS",
    });
    expect(second?.cycles[0]?.checks).toMatchObject([{ passed: true }]);
    // Each act turn saw the repository as it was then: the second child, the file the first wrote.
    const actPrompts = world.fakeModel.requests
      .map((request) => JSON.stringify(request.body))
      .filter((body) => body.includes("## Repository"));
    expect(actPrompts.some((body) => body.includes(`## arbor/session-${world.sessionId}`))).toBe(true);
    expect(actPrompts.some((body) => body.includes("?? notes.txt"))).toBe(true);
  });

  it("a rejected write is skipped and not asked again unchanged; abort ends the next run", async () => {
    const orch = orchestrator(readingModel());
    const task = "create `a.txt` containing `one`";
    const { runId } = await orch.startRun({ sessionId: world.sessionId, task, mode: "agent", actor });
    const first = await waitForPendingApproval("tool");
    await orch.decide({
      sessionId: world.sessionId,
      approvalId: first.id,
      decision: "rejected",
      reason: "not that",
      actor,
    });
    await orch.idle();
    // Issue #17.4: the model proposed the same write again; it was not asked about again.
    let view = await world.view();
    expect(Object.values(view.approvals).filter((approval) => approval.runId === runId)).toHaveLength(1);
    const root = view.intentions[view.runs[runId]?.rootId ?? ""];
    expect(root?.cycles).toHaveLength(1);
    expect(root?.cycles[0]).toMatchObject({
      judgment: "FAILURE",
      judgmentReason: "skipped: Ada rejected the fs.write call: not that",
    });
    expect(root?.status).toBe("FAILED");
    expect(root?.reason).toContain(
      "Ada rejected the fs.write call (not that), and the model proposed it again unchanged",
    );
    expect(view.runs[runId]?.status).toBe("FAILED");

    // A new run is a new intention: its write asks again, and abort on its card ends the run.
    const next = await orch.startRun({ sessionId: world.sessionId, task, mode: "agent", actor });
    const second = await waitForPendingApproval("tool");
    expect(second.id).not.toBe(first.id);
    await orch.decide({
      sessionId: world.sessionId,
      approvalId: second.id,
      decision: "rejected",
      reason: null,
      abort: true,
      actor,
    });
    await orch.idle();
    view = await world.view();
    expect(view.runs[next.runId]).toMatchObject({ status: "STOPPED", reason: "stopped by Ada" });
    await expect(fileInContainer("a.txt")).rejects.toThrow();
  });

  it("a project that pre-approves file changes gets its writes without a card", async () => {
    const orch = world.orchestrator({
      model: readingModel(),
      checkpointsOf: async () => CheckpointPolicy.parse({ commands: "never-ask", preApproved: ["write"] }),
    });
    const { runId } = await orch.startRun({
      sessionId: world.sessionId,
      task: "create `a.txt` containing `one`",
      mode: "agent",
      actor,
    });
    await orch.idle();
    const view = await world.view();
    expect(view.runs[runId]?.status).toBe("VERIFIED");
    expect(Object.values(view.approvals)).toEqual([]);
    const root = view.intentions[view.runs[runId]?.rootId ?? ""];
    expect(root?.cycles[0]?.gate).toMatchObject({
      decision: "approve",
      reason: "write tools are pre-approved for every run of this project.",
    });
    expect(await fileInContainer("a.txt")).toBe("one\n");
  });
});
