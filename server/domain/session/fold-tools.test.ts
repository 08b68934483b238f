import { describe, expect, it } from "vitest";
import { EventBody } from "@/server/domain/events/schema";
import { decomposedRun, sequence } from "@/testing/events/events";
import { foldEvents } from "./fold";

const call = { tool: "fs.write", input: { path: "notes.txt", content: "hello\n" } };

describe("folding tool calls and tool approvals", () => {
  it("keeps a tool approval's call and preview, and the person's edited call", () => {
    const view = foldEvents(
      sequence([
        ...decomposedRun(),
        {
          type: "approval-requested",
          runId: "run-1",
          approvalId: "w1",
          intentionId: "c1",
          kind: "tool",
          thought: "write it",
          binding: "sha256:x",
          call,
          preview: "old\n",
        },
        {
          type: "approval-decided",
          runId: "run-1",
          approvalId: "w1",
          decision: "approved",
          decidedBy: { userId: "u1", name: "Ada" },
          reason: null,
          call: { tool: "fs.write", input: { path: "notes.txt", content: "mine\n" } },
        },
      ]),
    );
    expect(view.approvals.w1).toMatchObject({
      kind: "tool",
      call,
      preview: "old\n",
      status: "APPROVED",
      editedCall: { tool: "fs.write", input: { content: "mine\n" } },
      editedCommand: null,
    });
  });

  it("lists the reads an intention made, with the cycle they led to", () => {
    const view = foldEvents(
      sequence([
        ...decomposedRun(),
        {
          type: "tool-called",
          runId: "run-1",
          intentionId: "c1",
          cycleIndex: 0,
          tool: "fs.read",
          input: "fs.read notes.txt",
          status: "ok",
          output: "     1\thello",
          durationMs: 12,
        },
      ]),
    );
    expect(view.intentions.c1?.reads).toEqual([
      expect.objectContaining({ cycleIndex: 0, tool: "fs.read", status: "ok", output: "     1\thello" }),
    ]);
    expect(view.intentions.c2?.reads).toEqual([]);
  });

  it("reads logs written before tool calls: a command approval and a command action stay as they were", () => {
    const old = EventBody.parse({
      type: "approval-requested",
      runId: "r",
      approvalId: "a",
      intentionId: "i",
      kind: "command",
      thought: "t",
      command: "ls",
    });
    expect(old).toMatchObject({ call: null, preview: null });
    const started = EventBody.parse({
      type: "cycle-started",
      runId: "r",
      intentionId: "i",
      cycleId: "c",
      index: 0,
      thought: "t",
      action: { type: "COMMAND", content: "ls" },
    });
    expect(started.type === "cycle-started" && started.action).toEqual({
      type: "COMMAND",
      content: "ls",
      target: null,
      tool: null,
      input: null,
    });
  });
});
