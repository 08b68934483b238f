import { describe, expect, it } from "vitest";
import type { CheckpointAnswerInput } from "@/server/domain/events/checkpoint-schema";
import type { EventInput } from "@/server/domain/events/schema";
import { DEFAULT_LIMITS } from "@/server/domain/session/limits";
import { nextStep } from "@/server/riva/decide/next-step";
import { decomposedRun, sequence } from "@/testing/events/events";
import { backticked, intentions, ok } from "@/testing/harness/engine-scripts";
import { FakeSandboxProvider, scriptedModel } from "@/testing/harness/fakes";
import { runTask } from "@/testing/harness/riva-harness";
import { budgetOf, defaultGrant, isOverBudget, splitBudget } from "./budgets";
import { foldEvents } from "./fold";

/** Per-intention budgets: the equal split, the roll-up, and the three answers to an overspent share. */

const RUN_BUDGET = { maxCostUsd: 0.1, maxTokens: null };
const step = (bodies: EventInput[]) =>
  nextStep(foldEvents(sequence(bodies)), "run-1", {
    limits: DEFAULT_LIMITS,
    now: Date.UTC(2026, 10, 22, 0, 1),
    budget: RUN_BUDGET,
  });
const spend = (intentionId: string, tokens: number, costUsd: number): EventInput => ({
  type: "llm-called",
  runId: "run-1",
  intentionId,
  stage: "act",
  modelId: "m",
  offline: false,
  tokensIn: tokens,
  tokensOut: 0,
  latencyMs: 1,
  error: null,
  costUsd,
});
const split: EventInput = {
  type: "budget-split",
  runId: "run-1",
  intentionId: "root",
  rule: "equal split",
  shares: ["c1", "c2"].map((intentionId) => ({ intentionId, budget: { maxCostUsd: 0.04, maxTokens: null } })),
};
const askedC1: EventInput = {
  type: "approval-requested",
  runId: "run-1",
  approvalId: "b1",
  intentionId: "c1",
  kind: "intention-budget",
  thought: "",
  proposal: {
    question: "intention_budget",
    budget: { maxCostUsd: 0.04, maxTokens: null },
    spent: { costUsd: 0.05, tokens: 50 },
  },
};
const answeredC1 = (answer: CheckpointAnswerInput, reason: string | null = null): EventInput => ({
  type: "approval-decided",
  runId: "run-1",
  approvalId: "b1",
  decision: answer.question === "intention_budget" && answer.choice === "grant" ? "approved" : "rejected",
  decidedBy: { userId: "u", name: "Grace" },
  reason,
  answer,
});
const overspent: EventInput[] = [...decomposedRun(), spend("root", 20, 0.02), split, spend("c1", 50, 0.05)];

describe("splitBudget", () => {
  it("shares what the parent has left equally, per dimension, and says so", () => {
    const result = splitBudget({ maxCostUsd: 0.1, maxTokens: 1_000 }, { costUsd: 0.01, tokens: 100 }, [
      "a",
      "b",
      "c",
    ]);
    expect(result.shares).toEqual(
      ["a", "b", "c"].map((intentionId) => ({ intentionId, budget: { maxCostUsd: 0.03, maxTokens: 300 } })),
    );
    expect(result.rule).toBe(
      "equal split: 3 children share the $0.0900 and 900 tokens left ($0.0300 / 300 tokens each)",
    );
  });

  it("never gives a negative share, and keeps an unlimited dimension unlimited", () => {
    const result = splitBudget({ maxCostUsd: 0.01, maxTokens: null }, { costUsd: 0.05, tokens: 9 }, [
      "a",
      "b",
    ]);
    expect(result.shares[0]?.budget).toEqual({ maxCostUsd: 0, maxTokens: null });
  });

  it("the default grant is the share again, or what was spent when that is more", () => {
    expect(defaultGrant({ maxCostUsd: 0.04, maxTokens: null }, { costUsd: 0.01, tokens: 5 })).toEqual({
      maxCostUsd: 0.04,
      maxTokens: null,
    });
    expect(defaultGrant({ maxCostUsd: 0, maxTokens: 10 }, { costUsd: 0.02, tokens: 30 })).toEqual({
      maxCostUsd: 0.02,
      maxTokens: 30,
    });
  });

  it("is over budget only once it spent something and reached its budget", () => {
    expect(isOverBudget({ costUsd: 0, tokens: 0 }, { maxCostUsd: 0, maxTokens: 0 })).toBe(false);
    expect(isOverBudget({ costUsd: 0.04, tokens: 1 }, { maxCostUsd: 0.04, maxTokens: null })).toBe(true);
    expect(isOverBudget({ costUsd: 0.03, tokens: 1 }, { maxCostUsd: 0.04, maxTokens: null })).toBe(false);
  });
});

describe("per-intention budgets in the transition", () => {
  it("splits the root's remaining run budget before a child spends anything", () => {
    const bodies = [...decomposedRun(), spend("root", 20, 0.02)];
    expect(step(bodies)).toMatchObject({
      kind: "split-budget",
      intention: { id: "root" },
      shares: [
        { intentionId: "c1", budget: { maxCostUsd: 0.04, maxTokens: null } },
        { intentionId: "c2", budget: { maxCostUsd: 0.04, maxTokens: null } },
      ],
    });
    expect(step([...bodies, split])).toMatchObject({ kind: "plan", intention: { id: "c1" } });
  });

  it("asks before an intention spends past its share, with its spend rolled up", () => {
    expect(step(overspent)).toMatchObject({
      kind: "ask",
      approvalKind: "intention-budget",
      intention: { id: "c1" },
      proposal: { budget: { maxCostUsd: 0.04 }, spent: { costUsd: 0.05, tokens: 50 } },
    });
  });

  it("grant: the share grows by the amount (and its parent's with it) and the intention goes on", () => {
    const bodies = [
      ...overspent,
      askedC1,
      answeredC1({
        question: "intention_budget",
        choice: "grant",
        grant: { maxCostUsd: 0.04, maxTokens: null },
      }),
    ];
    const view = foldEvents(sequence(bodies));
    expect(budgetOf(view, view.intentions.c1 as NonNullable<(typeof view.intentions)[string]>)).toEqual({
      maxCostUsd: 0.08,
      maxTokens: null,
    });
    expect(step(bodies)).toMatchObject({ kind: "plan", intention: { id: "c1" } });
  });

  it("decompose: the intention is split, with a fresh share for its children", () => {
    const bodies = [...overspent, askedC1, answeredC1({ question: "intention_budget", choice: "decompose" })];
    expect(step(bodies)).toMatchObject({
      kind: "decompose",
      intention: { id: "c1" },
      trigger: "budget: Grace asked to decompose it after it spent its share",
    });
  });

  it("stop: that intention fails with the reason, and failure propagates to its parent", () => {
    const bodies = [
      ...overspent,
      askedC1,
      answeredC1({ question: "intention_budget", choice: "stop" }, "too dear"),
    ];
    expect(step(bodies)).toMatchObject({
      kind: "settle",
      intention: { id: "c1" },
      status: "FAILED",
      reason: "budget: stopped by Grace: too dear",
    });
    const failed: EventInput = {
      type: "intention-status-changed",
      runId: "run-1",
      intentionId: "c1",
      status: "FAILED",
      reason: "budget: stopped by Grace: too dear",
    };
    expect(step([...bodies, failed])).toMatchObject({
      kind: "settle",
      intention: { id: "root" },
      status: "FAILED",
      reason: 'child 1 "run `a`" failed: budget: stopped by Grace: too dear',
    });
  });
});

describe("per-intention budgets in the engine", () => {
  // Each scripted call costs 15 tokens at $0.001 a token: $0.015. The run has $0.04: after the split
  // ($0.015 spent) each of two children gets $0.0125, so a child whose first action fails must ask
  // before its retry; the other child spends past its share on its only call, and is never asked.
  const model = () =>
    scriptedModel({
      plan: (input) =>
        input.mustDecompose
          ? { kind: "atomic", thought: "no" }
          : {
              kind: "decompose",
              thought: "",
              children: [
                { what: "run `fail once`", acceptance: "" },
                { what: "run `b`", acceptance: "" },
              ],
            },
      nextAction: (input) => backticked(input.what),
    });
  // `fail once` fails the first time only, so its retry (the same command) verifies it. Issue #15: a
  // retry that ran another command (`b`) no longer verifies "run `fail once`".
  const failsOnce = () => {
    let failed = false;
    return new FakeSandboxProvider((command) => {
      if (command !== "fail once" || failed) return { stdout: `ran ${command}` };
      failed = true;
      return { exitCode: 1, stderr: "nope" };
    });
  };

  it("records the split, asks about the overspent child only, and goes on after a grant", async () => {
    const asked: string[] = [];
    const { view, runId, events } = await runTask({
      task: "run `fail once` and run `b`",
      model: model(),
      sandboxes: failsOnce(),
      budget: { maxCostUsd: 0.04, maxTokens: null },
      checkpoints: { commands: "never-ask", decompositions: "auto" },
      answer: (approval) => {
        asked.push(`${approval.kind}:${approval.intentionId}`);
        return { decision: "approved" };
      },
    });
    const [, first, second] = intentions(view);
    expect(events.find((event) => event.body.type === "budget-split")?.body).toMatchObject({
      rule: "equal split: 2 children share the $0.0250 left ($0.0125 each)",
    });
    expect(asked).toEqual([`intention-budget:${first?.id}`]);
    expect(second?.status).toBe("VERIFIED");
    expect(first?.budget).toEqual({ maxCostUsd: 0.0125, maxTokens: null });
    expect(view.runs[runId]?.status).toBe("VERIFIED");
  });

  it("stop fails that intention (its sibling is never started) and its parent by failure propagation", async () => {
    const { view, runId } = await runTask({
      task: "run `fail once` and run `b`",
      model: model(),
      sandboxes: ok(),
      budget: { maxCostUsd: 0.04, maxTokens: null },
      checkpoints: { commands: "never-ask", decompositions: "auto" },
      answer: () => ({ decision: "rejected", reason: "enough" }),
    });
    const [root, first, second] = intentions(view);
    expect(first).toMatchObject({ status: "FAILED", reason: "budget: stopped by Ada: enough" });
    expect(second?.status).toBe("PENDING");
    expect(root?.reason).toContain("budget: stopped by Ada: enough");
    expect(view.runs[runId]).toMatchObject({ status: "FAILED" });
  });
});
