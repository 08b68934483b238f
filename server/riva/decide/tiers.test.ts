import { describe, expect, it } from "vitest";
import type { EventInput } from "@/server/domain/events/schema";
import { foldEvents } from "@/server/domain/session/fold";
import { DEFAULT_LIMITS, type RivaLimits } from "@/server/domain/session/limits";
import type { EscalationPolicy } from "@/server/domain/vocabulary/two-phase";
import { SIMPLE_TIER_DEFAULTS, type TierConfig } from "@/server/model/tiers/schema";
import { discovered, model, sequence } from "@/testing/events/events";
import { nextStep } from "./next-step";
import { escalatedEvent } from "./tier-events";
import { type EscalateStep, tierAttempts } from "./tiers";

/**
 * The loop's transition with model tiers, from folded events alone: an intention climbs the tiers when
 * its tier is spent or failing, decomposes or fails as `escalation` says, and a log that ended on a
 * tier continues on that tier.
 */

const START = Date.UTC(2026, 10, 22);

function config(escalation: EscalationPolicy = "escalate-then-decompose", tiers = 2): TierConfig {
  const names = ["fast", "strong", "strongest"];
  return {
    escalation,
    budgets: { maxCostUsd: 100, maxTokens: 10_000_000, maxIterations: 100 },
    tiers: names.slice(0, tiers).map((name) => ({
      name,
      provider: "openai-compatible" as const,
      model: `${name}-model`,
      ...SIMPLE_TIER_DEFAULTS,
      maxIterations: 3,
      maxCostUsd: 1,
      maxTokens: 100_000,
    })),
    prices: Object.fromEntries(names.map((name) => [`${name}-model`, { inputPer1M: 1, outputPer1M: 1 }])),
  };
}

const step = (bodies: EventInput[], tiers: TierConfig | null, limits: Partial<RivaLimits> = {}) =>
  nextStep(foldEvents(sequence(bodies)), "run-1", {
    limits: { ...DEFAULT_LIMITS, maxIterations: 100, ...limits },
    now: START + 60_000,
    tiers,
  });

const single = (depth = 0): EventInput[] => [
  { type: "run-started", runId: "run-1", task: "run `make`", mode: "agent", model },
  discovered("run-1"),
  {
    type: "intention-created",
    runId: "run-1",
    intentionId: "root",
    parentId: null,
    what: "run `make`",
    acceptance: "`make` exits 0",
    depth,
    position: 0,
  },
  { type: "intention-status-changed", runId: "run-1", intentionId: "root", status: "ACTIVE", reason: null },
  { type: "decision-made", runId: "run-1", intentionId: "root", decision: "verify-directly", reason: "x" },
];

/** One judged cycle; `judgment` UNCLEAR with different commands avoids the failure and stall triggers. */
function attempt(
  cycleId: string,
  options: { judgment?: "FAILURE" | "UNCLEAR"; command?: string; tokens?: number } = {},
): EventInput[] {
  const command = options.command ?? `make ${cycleId}`;
  return [
    {
      type: "llm-called",
      runId: "run-1",
      intentionId: "root",
      stage: "act",
      modelId: "openai-compatible:m",
      offline: false,
      tokensIn: options.tokens ?? 10,
      tokensOut: 0,
      latencyMs: 1,
      error: null,
      costUsd: 0,
    },
    {
      type: "cycle-started",
      runId: "run-1",
      intentionId: "root",
      cycleId,
      index: 0,
      thought: "",
      action: { type: "COMMAND", content: command, target: null },
    },
    {
      type: "cycle-result",
      runId: "run-1",
      intentionId: "root",
      cycleId,
      exitCode: 2,
      output: `out ${cycleId}`,
      timedOut: false,
      error: null,
      durationMs: 1,
    },
    {
      type: "cycle-judged",
      runId: "run-1",
      intentionId: "root",
      cycleId,
      judgment: options.judgment ?? "FAILURE",
      judgedBy: "auto",
      reason: "exit code 2",
    },
  ];
}

const twoFailures = [...attempt("c1"), ...attempt("c2")];

function rootOf(bodies: EventInput[]) {
  const root = foldEvents(sequence(bodies)).intentions.root;
  if (!root) throw new Error("no root intention");
  return root;
}

/** The config with its first tier changed. */
function firstTier(patch: Partial<TierConfig["tiers"][number]>, base = config()): TierConfig {
  const [first, ...rest] = base.tiers;
  if (!first) throw new Error("no tier");
  return { ...base, tiers: [{ ...first, ...patch }, ...rest] };
}

describe("nextStep with model tiers", () => {
  it("changes nothing when no tiers are configured (seed 000's trigger decomposes)", () => {
    expect(step([...single(), ...twoFailures], null)).toMatchObject({ kind: "decompose" });
  });

  it("retries on the same tier while it has room, with the failure summary named by tier", () => {
    const next = step([...single(), ...attempt("c1")], config());
    expect(next).toMatchObject({ kind: "act", intention: { id: "root" } });
    expect(next.kind === "act" && next.previousAttempts.join("\n")).toContain("Tier fast:");
  });

  it("escalate-then-decompose: two failures on tier 0 climb to tier 1, naming the rule", () => {
    const next = step([...single(), ...twoFailures], config());
    expect(next).toMatchObject({
      kind: "escalate",
      from: { index: 0, name: "fast", model: "fast-model" },
      to: { index: 1, name: "strong", model: "strong-model" },
      rule: expect.stringContaining("2 failed cycles"),
      reason: expect.stringContaining("escalating to strong"),
    });
  });

  it("escalates when the tier's iterations are spent even without a trigger", () => {
    const spent = firstTier({ maxIterations: 1 });
    expect(step([...single(), ...attempt("c1", { judgment: "UNCLEAR" })], spent)).toMatchObject({
      kind: "escalate",
      rule: "1 of 1 iterations used",
    });
  });

  it("escalates when the tier's token cap is spent", () => {
    const capped = firstTier({ maxTokens: 50 });
    expect(step([...single(), ...attempt("c1", { judgment: "UNCLEAR", tokens: 60 })], capped)).toMatchObject({
      kind: "escalate",
      rule: "60 of 50 tokens used",
    });
  });

  it("resumes on the tier the log ended on: after an escalation, tier 1 starts with fresh counters", () => {
    const escalated = [...single(), ...twoFailures, escalation(0, 1)];
    const next = step(escalated, config());
    expect(next).toMatchObject({ kind: "act" });
    const view = foldEvents(sequence(escalated));
    expect(view.intentions.root?.tier).toMatchObject({ index: 1, name: "strong", since: { cycles: 2 } });
    // The prompt reads both tiers: the current one first, then the earlier one, capped.
    const text = next.kind === "act" ? next.previousAttempts.join("\n\n") : "";
    expect(text.indexOf("Tier fast:")).toBeGreaterThan(-1);
    expect(text.length).toBeLessThanOrEqual(4_000);
  });

  it("an intention on a tier the config no longer has fails, naming it, rather than using another model", () => {
    const bodies = [...single(), ...twoFailures, escalation(0, 2)];
    expect(step(bodies, config())).toMatchObject({
      kind: "settle",
      status: "FAILED",
      reason: 'model tiers: the intention is on tier 3 ("strongest"), but the model config has 2',
    });
  });

  it("escalate-then-decompose: when the top tier fails too, the intention is decomposed", () => {
    const bodies = [...single(), ...twoFailures, escalation(0, 1), ...attempt("c3"), ...attempt("c4")];
    expect(step(bodies, config())).toMatchObject({
      kind: "decompose",
      trigger: expect.stringContaining("tier strong"),
    });
    expect(step(bodies, config())).not.toHaveProperty("fallback");
  });

  it("decompose-then-escalate: decomposes first, with escalation as the fallback when it cannot be split", () => {
    const next = step([...single(), ...twoFailures], config("decompose-then-escalate"));
    expect(next).toMatchObject({
      kind: "decompose",
      fallback: {
        kind: "escalate",
        to: { index: 1 },
        reason: expect.stringContaining("cannot be decomposed"),
      },
    });
  });

  it("decompose-then-escalate: at the depth limit it escalates instead", () => {
    const next = step([...single(1), ...twoFailures], config("decompose-then-escalate"), { maxDepth: 1 });
    expect(next).toMatchObject({ kind: "escalate", to: { index: 1 } });
  });

  it("escalate-only: the top tier failing fails the intention with the policy named", () => {
    const bodies = [...single(), ...twoFailures, escalation(0, 1), ...attempt("c3"), ...attempt("c4")];
    expect(step(bodies, config("escalate-only"))).toMatchObject({
      kind: "settle",
      status: "FAILED",
      reason: expect.stringContaining("nothing left under escalate-only"),
    });
  });

  it("decompose-only: never escalates, decomposes on tier 0", () => {
    expect(step([...single(), ...twoFailures], config("decompose-only", 3))).toMatchObject({
      kind: "decompose",
      trigger: expect.stringContaining("tier fast"),
    });
  });

  it("escalate-then-decompose at the depth limit on the top tier fails, saying why", () => {
    const bodies = [...single(1), ...twoFailures, escalation(0, 1), ...attempt("c3"), ...attempt("c4")];
    expect(step(bodies, config(), { maxDepth: 1 })).toMatchObject({
      kind: "settle",
      status: "FAILED",
      reason: expect.stringContaining("limit reached: max depth (1)"),
    });
  });

  it("compresses: beyond the latest six attempts of a tier, earlier ones are counted, not shown", () => {
    const many: EventInput[] = [];
    for (let index = 0; index < 9; index++)
      many.push(...attempt(`c${index}`, { judgment: "UNCLEAR", command: `cmd ${index}` }));
    const intention = rootOf([...single(), ...many]);
    const { previousAttempts } = tierAttempts(intention, config());
    expect(previousAttempts.join("\n")).toContain("Earlier: 3 attempts not shown (3 UNCLEAR)");
    expect(previousAttempts.join("\n")).toContain("#9 UNCLEAR: cmd 8");
  });
});

function escalation(from: number, to: number): EventInput {
  const tiers = config("escalate-then-decompose", 3).tiers;
  const ref = (index: number) => ({
    index,
    name: tiers[index]?.name ?? "",
    provider: "openai-compatible",
    model: tiers[index]?.model ?? "",
    mode: "simple" as const,
    roles: {},
    chaos: false,
  });
  const escalate: EscalateStep = {
    kind: "escalate",
    intention: rootOf(single()),
    from: ref(from),
    to: ref(to),
    rule: "2 failed cycles",
    reason: `tier ${ref(from).name}: 2 failed cycles; escalating to ${ref(to).name}`,
  };
  return escalatedEvent("run-1", escalate);
}
