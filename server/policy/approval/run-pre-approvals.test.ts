import { describe, expect, it } from "vitest";
import type { EventInput } from "@/server/domain/events/schema";
import { foldEvents } from "@/server/domain/session/fold";
import { decomposedRun, model, sequence } from "@/testing/events/events";
import { decideApproval } from "./decide";
import { checkRunPreApproval, runPreApprovalsFor } from "./run-pre-approvals";

const write = { tool: "fs.write", input: { path: "notes.txt", content: "hello\n" } };

function toolCard(runId: string, approvalId: string, call = write): EventInput {
  return {
    type: "approval-requested",
    runId,
    approvalId,
    intentionId: "c1",
    kind: "tool",
    thought: "write it",
    binding: "sha256:x",
    call,
  };
}

function decided(
  runId: string,
  approvalId: string,
  preApproveRun: ("write" | "git-write")[],
  decision: "approved" | "rejected" = "approved",
): EventInput {
  return {
    type: "approval-decided",
    runId,
    approvalId,
    decision,
    decidedBy: { userId: "u1", name: "Ada" },
    reason: null,
    preApproveRun,
  };
}

describe("a run's pre-approval, folded from the answer that granted it", () => {
  it("grants the run its category and names who granted it", () => {
    const view = foldEvents(
      sequence([...decomposedRun(), toolCard("run-1", "w1"), decided("run-1", "w1", ["write"])]),
    );
    expect(view.runs["run-1"]?.preApproved).toEqual([
      { category: "write", grantedBy: "Ada", approvalId: "w1" },
    ]);
    expect(runPreApprovalsFor(view, "run-1")).toEqual({ run: ["write"], runGrantedBy: { write: "Ada" } });
  });

  it("grants from the session bar (run-pre-approved) too, keeping the first grantor of a category", () => {
    const view = foldEvents(
      sequence([
        ...decomposedRun(),
        {
          type: "run-pre-approved",
          runId: "run-1",
          categories: ["git-write"],
          grantedBy: { userId: "u2", name: "Bo" },
        },
        toolCard("run-1", "w1"),
        decided("run-1", "w1", ["write"]),
        {
          type: "run-pre-approved",
          runId: "run-1",
          categories: ["write"],
          grantedBy: { userId: "u3", name: "Cy" },
        },
      ]),
    );
    expect(runPreApprovalsFor(view, "run-1")).toEqual({
      run: ["git-write", "write"],
      runGrantedBy: { "git-write": "Bo", write: "Ada" },
    });
  });

  it("never reaches another run of the same session", () => {
    const view = foldEvents(
      sequence([
        ...decomposedRun(),
        toolCard("run-1", "w1"),
        decided("run-1", "w1", ["write"]),
        { type: "run-started", runId: "run-2", task: "again", mode: "agent", model },
      ]),
    );
    expect(runPreApprovalsFor(view, "run-2")).toEqual({ run: [], runGrantedBy: {} });
    expect(runPreApprovalsFor(view, "no-such-run")).toEqual({ run: [], runGrantedBy: {} });
  });

  it("grants nothing from a rejection, from another run's id, or from a decomposition's answer", () => {
    const rejected = foldEvents(
      sequence([...decomposedRun(), toolCard("run-1", "w1"), decided("run-1", "w1", ["write"], "rejected")]),
    );
    expect(rejected.runs["run-1"]?.preApproved).toEqual([]);
    const mislabelled = foldEvents(
      sequence([
        ...decomposedRun(),
        { type: "run-started", runId: "run-2", task: "again", mode: "agent", model },
        toolCard("run-1", "w1"),
        decided("run-2", "w1", ["write"]),
      ]),
    );
    expect(mislabelled.runs["run-1"]?.preApproved).toEqual([]);
    expect(mislabelled.runs["run-2"]?.preApproved).toEqual([]);
    const decomposition = foldEvents(
      sequence([...decomposedRun().slice(0, -1), decided("run-1", "ap1", ["write"])]),
    );
    expect(decomposition.runs["run-1"]?.preApproved).toEqual([]);
  });

  it("lets a later write of the run through, but not a delete, a protected file or a secret", () => {
    const view = foldEvents(
      sequence([...decomposedRun(), toolCard("run-1", "w1"), decided("run-1", "w1", ["write"])]),
    );
    const gate = (tool: string, input: unknown, extra: object = {}) =>
      decideApproval({
        tool,
        input,
        risk: tool === "fs.delete" ? "dangerous" : "moderate",
        activeIntent: { id: "c1", ownedScope: ["**"] },
        policy: {},
        preApprovals: { ...runPreApprovalsFor(view, "run-1"), project: [] },
        ...extra,
      });
    expect(gate("fs.write", { path: "src/a.ts", content: "x" })).toEqual({
      decision: "approve",
      reason: "write tools are pre-approved for this run by Ada.",
    });
    expect(gate("fs.delete", { path: "src/a.ts" })).toMatchObject({ decision: "ask", confirm: true });
    expect(gate("fs.write", { path: "package.json", content: "{}" })).toMatchObject({ decision: "ask" });
    expect(gate("git.add", { paths: ["src/a.ts"] })).toMatchObject({ decision: "ask" });
    const secret = { secretFindings: [{ kind: "private-key", line: 1, preview: "-----BEGIN…" }] };
    expect(gate("fs.write", { path: "src/k.pem", content: "x" }, secret)).toMatchObject({ decision: "ask" });
  });
});

describe("checkRunPreApproval: what an answer may grant", () => {
  const card = { kind: "tool", call: write };
  it("grants the card's own category when approving", () => {
    expect(checkRunPreApproval(card, ["write"], true)).toEqual({ ok: true, categories: ["write"] });
    expect(checkRunPreApproval(card, [], false)).toEqual({ ok: true, categories: [] });
    const commit = { kind: "tool", call: { tool: "git.commit", input: { message: "m" } } };
    expect(checkRunPreApproval(commit, ["git-write"], true)).toEqual({ ok: true, categories: ["git-write"] });
  });

  it.each([
    ["another category", card, ["git-write"], true],
    ["a rejection", card, ["write"], false],
    ["a command card", { kind: "command", call: null }, ["write"], true],
    ["a decomposition", { kind: "decomposition", call: null }, ["write"], true],
    ["a read's card", { kind: "tool", call: { tool: "fs.read", input: { path: "a" } } }, ["write"], true],
  ] as const)("refuses %s", (_, approval, requested, approving) => {
    const checked = checkRunPreApproval(approval, requested, approving);
    expect(checked.ok).toBe(false);
  });
});
