import { describe, expect, it } from "vitest";
import type { ApprovalView } from "@/server/domain/session/view";
import { proposedAgainReason, rejectedBefore } from "./rejected-before";

function approval(overrides: Partial<ApprovalView>): ApprovalView {
  return {
    id: "ap1",
    runId: "run-1",
    intentionId: "i1",
    kind: "command",
    thought: "",
    children: [],
    status: "REJECTED",
    decidedBy: "Ada",
    reason: "not that",
    requestedSeq: 1,
    requestedAt: "",
    decidedAt: "",
    command: "rm -rf build",
    editedCommand: null,
    binding: null,
    confirm: false,
    gateReason: "",
    proposal: null,
    answer: null,
    call: null,
    editedCall: null,
    preview: null,
    ...overrides,
  };
}

const shell = (command: string) => ({ tool: "shell.exec", input: { command, timeoutMs: 60_000 } });
const node = { id: "i1" };

describe("a rejected action is not asked again unchanged in its intention", () => {
  it("finds the rejection of the same command, whatever defaults its input carries", () => {
    const view = { approvals: { ap1: approval({}) } };
    expect(rejectedBefore(view, node, shell("rm -rf build"))?.id).toBe("ap1");
    expect(rejectedBefore(view, node, shell("rm -rf build/cache"))).toBeUndefined();
    expect(rejectedBefore(view, { id: "other" }, shell("rm -rf build"))).toBeUndefined();
  });

  it("counts only rejections of actions, not approvals, pending cards or checks", () => {
    for (const changed of [
      { status: "APPROVED" },
      { status: "PENDING" },
      { checkPhase: "baseline" },
    ] as const) {
      const view = { approvals: { ap1: approval(changed) } };
      expect(rejectedBefore(view, node, shell("rm -rf build"))).toBeUndefined();
    }
  });

  it("compares a tool call by its whole input", () => {
    const call = { tool: "fs.write", input: { path: "a.txt", content: "one\n" } };
    const view = { approvals: { ap1: approval({ kind: "tool", command: null, call }) } };
    expect(
      rejectedBefore(view, node, { tool: "fs.write", input: { content: "one\n", path: "a.txt" } }),
    ).toBeDefined();
    expect(
      rejectedBefore(view, node, { tool: "fs.write", input: { path: "a.txt", content: "two\n" } }),
    ).toBeUndefined();
  });

  it("says who rejected what, why, and what to do instead", () => {
    expect(proposedAgainReason(approval({}), shell("rm -rf build"))).toBe(
      "Ada rejected `rm -rf build` (not that), and the model proposed it again unchanged: it is not asked again. Edit the action on its card instead of rejecting it, or give the task again another way.",
    );
  });
});
