import { describe, expect, it } from "vitest";
import type { EventInput } from "@/server/domain/events/schema";
import { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import { foldEvents } from "@/server/domain/session/fold";
import type { EscalationPolicy } from "@/server/domain/vocabulary/two-phase";
import { MemoryEventLog } from "@/server/events/log";
import { commandAction, type Plan } from "@/server/model/actions";
import { SIMPLE_TIER_DEFAULTS, type TierConfig } from "@/server/model/tiers/schema";
import type { AgentModel } from "@/server/model/types";
import { discovered, ofType } from "@/testing/events/events";
import { FakeSandboxProvider, scriptedModel } from "@/testing/harness/fakes";
import { testOrchestrator } from "@/testing/harness/orchestrator-deps";
import { runTask } from "@/testing/harness/riva-harness";
import { escalatedEvent } from "./decide/tier-events";

/**
 * The engine with model tiers, over the in-memory log with scripted models and sandbox: which model
 * serves each call, when the intention climbs, and how escalation and decomposition combine.
 */

function tierModel(id: string, command: string, plan: Plan = { kind: "atomic", thought: "one step" }) {
  const model = scriptedModel({
    plan: () => plan,
    nextAction: () => ({ thought: `${id} tries`, command }),
  });
  // Each call record names its model, as the AI SDK model does.
  const named: AgentModel = {
    id,
    label: id,
    offline: false,
    plan: async (input, signal) => {
      const answer = await model.plan(input, signal);
      return { ...answer, call: { ...answer.call, modelId: id, offline: false } };
    },
    nextAction: async (input, signal) => {
      const answer = await model.nextAction(input, signal);
      return { ...answer, call: { ...answer.call, modelId: id, offline: false } };
    },
  };
  return named;
}

function config(escalation: EscalationPolicy): TierConfig {
  const tier = (name: string) => ({
    name,
    provider: "openai-compatible" as const,
    model: name,
    ...SIMPLE_TIER_DEFAULTS,
    maxIterations: 3,
    maxCostUsd: 10,
    maxTokens: 1_000_000,
  });
  return {
    escalation,
    budgets: { maxCostUsd: 100, maxTokens: 10_000_000, maxIterations: 40 },
    tiers: [tier("weak"), tier("strong")],
    prices: {},
  };
}

/** `false` fails, anything else succeeds. */
const sandbox = () =>
  new FakeSandboxProvider((command) => (command.includes("false") ? { exitCode: 1, stderr: "no" } : {}));

describe("RivaEngine with model tiers", () => {
  it("starts on tier 0, escalates after its failures, and the stronger model verifies", async () => {
    const weak = tierModel("weak", "false");
    const strong = tierModel("strong", "true");
    const { view, events, runId } = await runTask({
      task: "run `make`",
      model: weak,
      sandboxes: sandbox(),
      tiers: { config: config("escalate-then-decompose"), models: [weak, strong] },
    });
    expect(view.runs[runId]).toMatchObject({ status: "VERIFIED", model: { id: "weak" } });
    expect(view.runs[runId]?.tiers?.tiers.map((tier) => tier.name)).toEqual(["weak", "strong"]);
    const acts = ofType(events, "llm-called").filter((call) => call.stage === "act");
    expect(acts.map((call) => call.modelId)).toEqual(["weak", "weak", "strong"]);
    const [escalated] = ofType(events, "tier-escalated");
    expect(escalated).toMatchObject({
      from: { index: 0, name: "weak" },
      to: { index: 1, name: "strong" },
      rule: expect.stringContaining("2 failed cycles"),
    });
    const root = view.runs[runId]?.rootId;
    expect(root && view.intentions[root]?.tier).toMatchObject({ index: 1, name: "strong" });
  });

  it("decompose-then-escalate: the split comes first; when the model says it cannot be split, it climbs", async () => {
    const weak = tierModel("weak", "false");
    const strong = tierModel("strong", "true");
    const { view, events, runId } = await runTask({
      task: "run `make`",
      model: weak,
      sandboxes: sandbox(),
      tiers: { config: config("decompose-then-escalate"), models: [weak, strong] },
    });
    expect(view.runs[runId]?.status).toBe("VERIFIED");
    const decompose = ofType(events, "llm-called").find((call) => call.stage === "decompose");
    expect(decompose?.modelId).toBe("weak");
    expect(ofType(events, "tier-escalated")[0]?.reason).toContain("cannot be decomposed");
  });

  it("escalate-then-decompose: when the top tier fails too, the intention is split, and children start on tier 0", async () => {
    // Issue #15: each child is itself a command and is verified by running exactly it (`true`, green
    // before any work, would prove nothing).
    const children = [
      { what: "run `make first`", acceptance: "exits 0" },
      { what: "run `make second`", acceptance: "exits 0" },
    ];
    const weak = tierModel("weak", "false");
    const strong = tierModel("strong", "false", { kind: "decompose", thought: "split", children });
    let actsOnChildren = 0;
    const childModel: AgentModel = {
      ...weak,
      nextAction: async (input, signal) => {
        if (input.what.includes("first") || input.what.includes("second")) actsOnChildren += 1;
        const answer = await weak.nextAction(input, signal);
        const part = /run `(make (?:first|second))`/.exec(input.what)?.[1];
        return part ? { ...answer, action: commandAction("works", part) } : answer;
      },
    };
    const { view, events, runId } = await runTask({
      task: "run `make`",
      model: childModel,
      sandboxes: sandbox(),
      tiers: { config: config("escalate-then-decompose"), models: [childModel, strong] },
    });
    expect(view.runs[runId]?.status).toBe("VERIFIED");
    expect(ofType(events, "approval-requested").map((approval) => approval.kind)).toContain("decomposition");
    expect(ofType(events, "llm-called").find((call) => call.stage === "decompose")?.modelId).toBe("strong");
    expect(actsOnChildren).toBe(2);
    const childIds = Object.values(view.intentions).filter((intention) => intention.depth === 1);
    expect(childIds.map((child) => child.tier)).toEqual([null, null]);
  });

  it("escalate-only: the top tier failing fails the run with the policy named", async () => {
    const weak = tierModel("weak", "false");
    const strong = tierModel("strong", "false");
    const { view, runId } = await runTask({
      task: "run `make`",
      model: weak,
      sandboxes: sandbox(),
      tiers: { config: config("escalate-only"), models: [weak, strong] },
    });
    expect(view.runs[runId]).toMatchObject({
      status: "FAILED",
      reason: expect.stringContaining("nothing left under escalate-only"),
    });
  });

  it("resumes after a restart on the tier the log ended on", async () => {
    const log = new MemoryEventLog();
    const runId = "run-1";
    const failedCycle = (cycleId: string): EventInput[] => [
      {
        type: "llm-called",
        runId,
        intentionId: "root",
        stage: "act",
        modelId: "weak",
        offline: false,
        tokensIn: 10,
        tokensOut: 5,
        latencyMs: 1,
        error: null,
      },
      {
        type: "cycle-started",
        runId,
        intentionId: "root",
        cycleId,
        index: 0,
        thought: "weak tries",
        action: { type: "COMMAND", content: "false" },
      },
      {
        type: "cycle-result",
        runId,
        intentionId: "root",
        cycleId,
        exitCode: 1,
        output: "no",
        timedOut: false,
        error: null,
        durationMs: 1,
      },
      {
        type: "cycle-judged",
        runId,
        intentionId: "root",
        cycleId,
        judgment: "FAILURE",
        judgedBy: "auto",
        reason: "exit code 1",
      },
    ];
    const tiers = config("escalate-then-decompose");
    const ref = (index: number) => ({
      index,
      name: tiers.tiers[index]?.name ?? "",
      provider: "openai-compatible",
      model: tiers.tiers[index]?.model ?? "",
      mode: "simple" as const,
      roles: {},
      chaos: false,
    });
    await log.append("s1", [
      {
        type: "run-started",
        runId,
        task: "run `make`",
        mode: "agent",
        model: { id: "weak", label: "weak", offline: false },
      },
      { type: "tiers-configured", runId, escalation: tiers.escalation, tiers: [ref(0), ref(1)] },
      discovered(runId),
      {
        type: "intention-created",
        runId,
        intentionId: "root",
        parentId: null,
        what: "run `make`",
        acceptance: "",
        depth: 0,
        position: 0,
      },
      { type: "intention-status-changed", runId, intentionId: "root", status: "ACTIVE", reason: null },
      {
        type: "contract-built",
        runId,
        intentionId: "root",
        criteria: [{ kind: "TESTS_PASS", command: "make" }],
        source: "request",
      },
      { type: "decision-made", runId, intentionId: "root", decision: "verify-directly", reason: "x" },
      ...failedCycle("c1"),
      ...failedCycle("c2"),
    ]);
    const before = foldEvents(await log.read("s1"));
    const root = before.intentions.root;
    if (!root) throw new Error("no root");
    await log.append("s1", [
      escalatedEvent(runId, {
        kind: "escalate",
        intention: root,
        from: ref(0),
        to: ref(1),
        rule: "2 failed cycles",
        reason: "climb",
      }),
    ]);
    // The server restarts here: a new orchestrator with fresh models picks the run up from the log.
    const weak = tierModel("weak", "false");
    const strong = tierModel("strong", "true");
    const restarted = testOrchestrator({
      log,
      model: weak,
      sandboxes: sandbox(),
      commandTimeoutMs: 1_000,
      sandboxImage: "fake",
      runningRuns: async () => [{ runId, sessionId: "s1" }],
      tiersForRun: async () => ({ config: tiers, models: [weak, strong] }),
      // The contract's check (`make` itself) runs unasked here, as the other engine tests' commands do.
      checkpointsOf: async () => CheckpointPolicy.parse({ commands: "never-ask" }),
    });
    expect(await restarted.resumeInterrupted()).toBe(1);
    await restarted.idle();
    const events = await log.read("s1");
    const view = foldEvents(events);
    expect(view.runs[runId]?.status).toBe("VERIFIED");
    const acts = ofType(events, "llm-called").filter((call) => call.stage === "act");
    expect(acts.map((call) => call.modelId)).toEqual(["weak", "weak", "strong"]);
    expect(view.intentions.root?.tier?.index).toBe(1);
  });
});
