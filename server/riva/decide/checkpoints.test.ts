import { describe, expect, it } from "vitest";
import type { CheckpointAnswerInput, CheckpointProposal } from "@/server/domain/events/checkpoint-schema";
import type { EventInput } from "@/server/domain/events/schema";
import { foldEvents } from "@/server/domain/session/fold";
import { DEFAULT_LIMITS } from "@/server/domain/session/limits";
import { cycle, decomposedRun, sequence } from "@/testing/events/events";
import { AUTO_QUESTIONS, type Questions } from "./checkpoints";
import { nextStep } from "./next-step";

/** The three judgment questions in the pure transition, under "auto" and under "ask". */

const ASK: Questions = { judgeAction: "ask", verifyIntegration: "ask", reviewReflection: "ask" };
const step = (bodies: EventInput[], questions: Questions = AUTO_QUESTIONS) =>
  nextStep(foldEvents(sequence(bodies)), "run-1", {
    limits: DEFAULT_LIMITS,
    now: Date.UTC(2026, 10, 22, 0, 1),
    questions,
  });

/** c1 ran `true` (exit `exitCode`) and has its result, but no judgment yet. */
const unjudged = (exitCode: number): EventInput[] => [
  ...decomposedRun(),
  ...cycle("run-1", "c1", "cy1", exitCode).filter((body) => body.type !== "cycle-judged"),
];

const asked = (kind: string, proposal: CheckpointProposal, intentionId = "c1"): EventInput => ({
  type: "approval-requested",
  runId: "run-1",
  approvalId: `q-${kind}`,
  intentionId,
  kind: kind as "judgment",
  thought: "",
  proposal,
});
const answered = (
  kind: string,
  answer: CheckpointAnswerInput,
  decision: "approved" | "rejected" = "rejected",
  reason: string | null = "looks wrong",
): EventInput => ({
  type: "approval-decided",
  runId: "run-1",
  approvalId: `q-${kind}`,
  decision,
  decidedBy: { userId: "u-grace", name: "Grace" },
  reason,
  answer,
});
const judgeProposal: CheckpointProposal = {
  question: "judge_action",
  cycleId: "cy1",
  judgment: "SUCCESS",
  reason: "exit code 0",
  evidence: "out",
};

describe("judge_action", () => {
  it("auto: records the exit-code judgment by the auto checkpoint", () => {
    expect(step(unjudged(0))).toMatchObject({
      kind: "judge",
      cycleId: "cy1",
      judgment: "SUCCESS",
      judgedBy: "auto",
      reflection: null,
    });
    expect(step(unjudged(2))).toMatchObject({
      judgment: "FAILURE",
      judgedBy: "auto",
      reflection: expect.stringContaining("Failed (exit code 2)"),
    });
  });

  it("ask: proposes the auto judgment with the result as evidence", () => {
    expect(step(unjudged(0), ASK)).toMatchObject({
      kind: "ask",
      approvalKind: "judgment",
      intention: { id: "c1" },
      proposal: {
        question: "judge_action",
        cycleId: "cy1",
        judgment: "SUCCESS",
        evidence: expect.stringContaining("$ true\nexit code 0\nout"),
      },
    });
  });

  it("ask: an unanswered question waits, and never becomes an approval by itself", () => {
    const bodies = [...unjudged(0), asked("judgment", judgeProposal)];
    expect(step(bodies, ASK)).toEqual({ kind: "await-approval", approvalId: "q-judgment" });
    // Even if the project switched the question off meanwhile, the asked person is still waited for.
    expect(step(bodies, AUTO_QUESTIONS)).toEqual({ kind: "await-approval", approvalId: "q-judgment" });
  });

  it("ask: a person's override is recorded as theirs, with the auto verdict and their reason", () => {
    const bodies = [
      ...unjudged(0),
      asked("judgment", judgeProposal),
      answered("judgment", { question: "judge_action", judgment: "FAILURE" }),
    ];
    const judged = step(bodies, ASK);
    expect(judged).toMatchObject({
      kind: "judge",
      judgment: "FAILURE",
      judgedBy: "Grace",
      reason: "Grace overrode SUCCESS with FAILURE: looks wrong (auto: exit code 0)",
      // review_reflection is asked too, so the reflection is not written with the judgment.
      reflection: null,
    });
    const autoReflect = step(bodies, { ...ASK, reviewReflection: "auto" });
    expect(autoReflect).toMatchObject({ reflection: expect.stringMatching(/^Judged FAILURE by Grace/) });
  });

  it("ask: a confirmed verdict settles the intention like the auto one would", () => {
    const bodies: EventInput[] = [
      ...unjudged(0),
      asked("judgment", judgeProposal),
      answered("judgment", { question: "judge_action", judgment: "SUCCESS" }, "approved", null),
      {
        type: "cycle-judged",
        runId: "run-1",
        intentionId: "c1",
        cycleId: "cy1",
        judgment: "SUCCESS",
        judgedBy: "Grace",
        reason: "Grace confirmed SUCCESS (auto: exit code 0)",
      },
    ];
    // No check ran: the person's explicit verdict is the evidence, recorded with their name (issue #15).
    expect(step(bodies, ASK)).toMatchObject({
      kind: "settle",
      intention: { id: "c1" },
      status: "VERIFIED",
      reason: "Grace confirmed SUCCESS (auto: exit code 0) — evidence: accepted by Grace (no check ran)",
      evidence: "accepted-by-person",
    });
  });
});

describe("review_reflection", () => {
  const missed = [...decomposedRun(), ...cycle("run-1", "c1", "cy1", 1)];
  const reflectionProposal: CheckpointProposal = {
    question: "review_reflection",
    cycleId: "cy1",
    judgment: "FAILURE",
    reflection: "Failed (exit code 1). Last output:\nout",
  };

  it("auto: a miss without a reflection goes on to the next attempt", () => {
    expect(step(missed)).toMatchObject({ kind: "act", intention: { id: "c1" } });
  });

  it("ask: shows the proposed reflection for review", () => {
    expect(step(missed, ASK)).toMatchObject({
      kind: "ask",
      approvalKind: "reflection",
      proposal: reflectionProposal,
    });
  });

  it("ask: records the person's edited reflection, which the next attempt reads", () => {
    const edited = "Use `make -k` instead";
    const bodies = [
      ...missed,
      asked("reflection", reflectionProposal),
      answered("reflection", { question: "review_reflection", reflection: edited }),
    ];
    expect(step(bodies, ASK)).toEqual(expect.objectContaining({ kind: "reflect", reflection: edited }));
    const reflected = [
      ...bodies,
      { type: "cycle-reflected", runId: "run-1", intentionId: "c1", cycleId: "cy1", reflection: edited },
    ] satisfies EventInput[];
    expect(step(reflected, ASK)).toMatchObject({
      kind: "act",
      previousAttempts: [`true → FAILURE: ${edited}`],
    });
  });

  it("ask: a request to decompose forces the split, naming who asked", () => {
    const bodies: EventInput[] = [
      ...missed,
      asked("reflection", reflectionProposal),
      answered("reflection", {
        question: "review_reflection",
        reflection: reflectionProposal.reflection,
        decompose: true,
      }),
      {
        type: "cycle-reflected",
        runId: "run-1",
        intentionId: "c1",
        cycleId: "cy1",
        reflection: reflectionProposal.reflection,
      },
    ];
    expect(step(bodies, ASK)).toMatchObject({
      kind: "decompose",
      intention: { id: "c1" },
      trigger: "Grace asked to decompose after reviewing the reflection",
    });
  });
});

describe("verify_integration", () => {
  const childrenDone = [
    ...decomposedRun(),
    ...cycle("run-1", "c1", "x1", 0),
    ...cycle("run-1", "c2", "x2", 0),
  ];
  const settle = (status: "VERIFIED" | "FAILED"): EventInput[] => [
    {
      type: "intention-status-changed",
      runId: "run-1",
      intentionId: "c1",
      status: "VERIFIED",
      reason: "exit code 0",
      evidence: "ran-as-requested",
    },
    {
      type: "intention-status-changed",
      runId: "run-1",
      intentionId: "c2",
      status,
      reason: "exit code 0",
      ...(status === "VERIFIED" ? { evidence: "ran-as-requested" as const } : {}),
    },
  ];
  const done = [...childrenDone, ...settle("VERIFIED")] as EventInput[];
  const integrationProposal: CheckpointProposal = {
    question: "verify_integration",
    status: "VERIFIED",
    reason: "integration check passed: all 2 children verified",
    evidence: "✓ child 1: run `a`\n✓ child 2: run `b`",
  };

  it("auto: settles the parent VERIFIED when every child is", () => {
    expect(step(done)).toMatchObject({
      kind: "settle",
      intention: { id: "root" },
      status: "VERIFIED",
      reason: "integration check passed: all 2 children verified",
    });
  });

  it("ask: proposes the verdict with the children as evidence", () => {
    expect(step(done, ASK)).toMatchObject({
      kind: "ask",
      approvalKind: "integration",
      intention: { id: "root" },
      proposal: integrationProposal,
    });
  });

  it("ask: a person's override fails the parent with their reason; a confirmation verifies it", () => {
    const bodies = [...done, asked("integration", integrationProposal, "root")];
    const overridden = [
      ...bodies,
      answered(
        "integration",
        { question: "verify_integration", status: "FAILED" },
        "rejected",
        "the parts do not fit",
      ),
    ];
    expect(step(overridden, ASK)).toMatchObject({
      kind: "settle",
      intention: { id: "root" },
      status: "FAILED",
      reason:
        "integration: Grace overrode VERIFIED with FAILED: the parts do not fit (auto: integration check passed: all 2 children verified)",
    });
    const confirmed = [
      ...bodies,
      answered("integration", { question: "verify_integration", status: "VERIFIED" }, "approved", null),
    ];
    expect(step(confirmed, ASK)).toMatchObject({ kind: "settle", status: "VERIFIED" });
  });

  it("ask: is not asked while a child is still open", () => {
    expect(step(childrenDone, ASK)).toMatchObject({ kind: "settle", intention: { id: "c1" } });
  });
});
