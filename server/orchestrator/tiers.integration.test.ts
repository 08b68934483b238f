import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { foldEvents } from "@/server/domain/session/fold";
import { EventStore } from "@/server/events/store";
import { createPricer } from "@/server/model/pricing";
import { loadTierConfig } from "@/server/model/tiers/load";
import type { TierConfig } from "@/server/model/tiers/schema";
import { createSecretBox } from "@/server/settings/secret-box";
import { tierModelsForSession } from "@/server/settings/tier-models";
import { ofType } from "@/testing/events/events";
import { orchestratorWorld } from "@/testing/harness/orchestrator-world";
import type { Orchestrator } from "./orchestrator";

/**
 * Model tiers with every real part: SQLite, the Docker sandbox, and the AI SDK over HTTP to the fake
 * model server, whose default scenario makes models named weak-… fail at intentions marked "(hard)".
 * The tiers come from YAML and resolve to models through the layered settings, as in the app.
 */
const world = orchestratorWorld({ repoName: "Tiered", fakeModel: true });
const { actor } = world;

function tierYaml(models: [string, string]): TierConfig {
  return loadTierConfig(
    [
      "escalation: escalate-then-decompose",
      "budgets: { maxCostUsd: 5, maxTokens: 10000000, maxIterations: 40 }",
      "tiers:",
      ...models.map(
        (model, index) =>
          `  - { name: tier-${index}, provider: openai-compatible, model: ${model}, maxIterations: 3, maxCostUsd: 1, maxTokens: 1000000 }`,
      ),
      "prices:",
      ...models.map((model) => `  ${model}: { inputPer1M: 1, outputPer1M: 2 }`),
    ].join("\n"),
  );
}

function orchestrator(config: TierConfig) {
  const box = createSecretBox(randomBytes(32));
  const environment = { provider: "openai-compatible" as const, baseUrl: world.fakeModel.url };
  return world.orchestrator({
    priceOf: createPricer(config.prices),
    tiersForRun: (session, overrides) =>
      tierModelsForSession({ db: world.db, box, environment }, session, config, overrides),
  });
}

const approveUntilEnded = (orch: Orchestrator, runId: string) => world.approveUntilEnded(orch, runId);

describe("model tiers with Docker, SQLite and the fake model server", () => {
  it("escalates from the failing tier-0 model to tier 1, whose calls are recorded, and verifies", async () => {
    const orch = orchestrator(tierYaml(["weak-fast", "strong-slow"]));
    const { runId } = await orch.startRun({
      sessionId: world.sessionId,
      task: "run `ls README.md` (hard)",
      mode: "agent",
      actor,
    });
    await approveUntilEnded(orch, runId);
    const events = await new EventStore(world.db).read(world.sessionId);
    const view = foldEvents(events);
    expect(view.runs[runId]).toMatchObject({
      status: "VERIFIED",
      model: { id: "openai-compatible:weak-fast", offline: false },
    });
    const acts = ofType(events, "llm-called").filter((call) => call.stage === "act" && call.error === null);
    expect(acts.map((call) => call.modelId)).toEqual([
      "openai-compatible:weak-fast",
      "openai-compatible:weak-fast",
      "openai-compatible:strong-slow",
    ]);
    expect(acts.every((call) => call.costUsd !== null && call.costUsd > 0)).toBe(true);
    expect(ofType(events, "tier-escalated")).toEqual([
      expect.objectContaining({
        from: expect.objectContaining({ name: "tier-0", model: "weak-fast" }),
        to: expect.objectContaining({ name: "tier-1", model: "strong-slow" }),
        rule: expect.stringContaining("2 failed cycles"),
      }),
    ]);
    const root = view.intentions[view.runs[runId]?.rootId ?? ""];
    expect(root?.tier).toMatchObject({ index: 1, name: "tier-1" });
    expect(root?.cycles.map((cycle) => cycle.judgment)).toEqual(["FAILURE", "FAILURE", "SUCCESS"]);
    // The strong tier's prompt read the weak tier's attempts (the fake server saw them).
    const strongAsk = world.fakeModel.requests.find((request) =>
      JSON.stringify(request.body).includes('"strong-slow"'),
    );
    expect(JSON.stringify(strongAsk?.body ?? {})).toContain("Tier tier-0:");
  });

  it("escalate-then-decompose: the top tier fails too, so the intention is decomposed and its children verify", async () => {
    const orch = orchestrator(tierYaml(["weak-a", "weak-b"]));
    const { runId } = await orch.startRun({
      sessionId: world.sessionId,
      task: "run `ls README.md` (hard)",
      mode: "agent",
      actor,
    });
    const kinds = await approveUntilEnded(orch, runId);
    const events = await new EventStore(world.db).read(world.sessionId);
    const view = foldEvents(events);
    expect(view.runs[runId]?.status).toBe("VERIFIED");
    expect(kinds).toEqual(["decomposition"]);
    expect(ofType(events, "tier-escalated")).toHaveLength(1);
    const split = ofType(events, "llm-called").find((call) => call.stage === "decompose");
    expect(split?.modelId).toBe("openai-compatible:weak-b");
    const children = Object.values(view.intentions).filter((intention) => intention.depth === 1);
    expect(children.map((child) => [child.what, child.status, child.tier])).toEqual([
      ["run `ls README.md`", "VERIFIED", null],
      ["run `pwd`", "VERIFIED", null],
    ]);
    // Children start on tier 0 again.
    const childCalls = ofType(events, "llm-called").filter(
      (call) => call.stage === "act" && children.some((child) => child.id === call.intentionId),
    );
    expect(new Set(childCalls.map((call) => call.modelId))).toEqual(new Set(["openai-compatible:weak-a"]));
  });

  it("a tier that cannot be served stops the run before it starts, naming every such tier", async () => {
    const config = loadTierConfig(
      [
        "escalation: escalate-only",
        "budgets: { maxCostUsd: 5, maxTokens: 1000, maxIterations: 4 }",
        "tiers:",
        "  - { name: cloud, provider: anthropic, model: claude-x, maxIterations: 1, maxCostUsd: 1, maxTokens: 100 }",
        "  - { name: other, provider: openai, model: gpt-x, maxIterations: 1, maxCostUsd: 1, maxTokens: 100 }",
        "prices: { claude-x: { inputPer1M: 1, outputPer1M: 1 }, gpt-x: { inputPer1M: 1, outputPer1M: 1 } }",
      ].join("\n"),
    );
    const orch = orchestrator(config);
    await expect(
      orch.startRun({ sessionId: world.sessionId, task: "run `ls`", mode: "agent", actor }),
    ).rejects.toThrow(
      /tier "cloud" \(anthropic claude-x\) has no API key.*tier "other" \(openai gpt-x\) has no API key/,
    );
    expect(await world.db.run.count()).toBe(0);
  });
});
