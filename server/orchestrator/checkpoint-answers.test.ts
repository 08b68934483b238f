import { describe, expect, it } from "vitest";
import type { CheckpointProposal } from "@/server/domain/events/checkpoint-schema";
import type { EventInput } from "@/server/domain/events/schema";
import { foldEvents } from "@/server/domain/session/fold";
import { decomposedRun, sequence } from "@/testing/events/events";
import { resolveCheckpointAnswer } from "./checkpoint-answers";

/** A person's answer to a judgment question or an intention budget, checked before it is recorded. */

function asked(kind: string, proposal: CheckpointProposal | null, intentionId = "c1") {
  const bodies: EventInput[] = [
    ...decomposedRun(),
    {
      type: "approval-requested",
      runId: "run-1",
      approvalId: "q",
      intentionId,
      kind: kind as "judgment",
      thought: "",
      proposal,
    },
  ];
  const view = foldEvents(sequence(bodies));
  const approval = view.approvals.q;
  if (!approval) throw new Error("no approval");
  return { view, approval };
}
const judge = asked("judgment", {
  question: "judge_action",
  cycleId: "cy",
  judgment: "SUCCESS",
  reason: "exit code 0",
  evidence: "",
});

describe("resolveCheckpointAnswer", () => {
  it("approving a judgment without a verdict confirms the proposal", () => {
    expect(resolveCheckpointAnswer(judge.view, judge.approval, "approved", undefined)).toEqual({
      decision: "approved",
      answer: { question: "judge_action", judgment: "SUCCESS" },
    });
  });

  it("records another verdict as an override, and refuses a rejection that names none", () => {
    const override = { question: "judge_action" as const, judgment: "FAILURE" as const };
    expect(resolveCheckpointAnswer(judge.view, judge.approval, "approved", override)).toEqual({
      decision: "rejected",
      answer: override,
    });
    expect(() => resolveCheckpointAnswer(judge.view, judge.approval, "rejected", undefined)).toThrow(
      "Choose the verdict that replaces the proposed one.",
    );
    expect(() =>
      resolveCheckpointAnswer(judge.view, judge.approval, "approved", {
        question: "verify_integration",
        status: "FAILED",
      }),
    ).toThrow("That question takes a judge_action answer.");
  });

  it("rejecting an integration verdict flips it", () => {
    const { view, approval } = asked(
      "integration",
      { question: "verify_integration", status: "VERIFIED", reason: "ok", evidence: "" },
      "root",
    );
    expect(resolveCheckpointAnswer(view, approval, "rejected", undefined)).toEqual({
      decision: "rejected",
      answer: { question: "verify_integration", status: "FAILED" },
    });
  });

  it("refuses an empty reflection", () => {
    const { view, approval } = asked("reflection", {
      question: "review_reflection",
      cycleId: "cy",
      judgment: "FAILURE",
      reflection: "Failed",
    });
    expect(() =>
      resolveCheckpointAnswer(view, approval, "approved", {
        question: "review_reflection",
        reflection: "  ",
      }),
    ).toThrow("A reflection cannot be empty.");
  });

  it("a budget grant without an amount gives the share again; stop is the rejection; decompose needs no children", () => {
    const proposal: CheckpointProposal = {
      question: "intention_budget",
      budget: { maxCostUsd: 0.02, maxTokens: null },
      spent: { costUsd: 0, tokens: 0 },
    };
    const child = asked("intention-budget", proposal);
    expect(resolveCheckpointAnswer(child.view, child.approval, "approved", undefined).answer).toEqual({
      question: "intention_budget",
      choice: "grant",
      grant: { maxCostUsd: null, maxTokens: null },
    });
    expect(resolveCheckpointAnswer(child.view, child.approval, "rejected", undefined)).toEqual({
      decision: "rejected",
      answer: { question: "intention_budget", choice: "stop", grant: null },
    });
    const parent = asked("intention-budget", proposal, "root");
    expect(() =>
      resolveCheckpointAnswer(parent.view, parent.approval, "rejected", {
        question: "intention_budget",
        choice: "decompose",
      }),
    ).toThrow("That intention is already decomposed: grant more or stop it.");
  });

  it("keeps other approvals as they were and refuses a verdict on them", () => {
    const { view, approval } = asked("command", null);
    expect(resolveCheckpointAnswer(view, approval, "rejected", undefined)).toEqual({
      decision: "rejected",
      answer: null,
    });
    expect(() =>
      resolveCheckpointAnswer(view, approval, "approved", { question: "judge_action", judgment: "SUCCESS" }),
    ).toThrow("A command approval takes no verdict.");
  });
});
