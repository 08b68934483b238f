import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { pathText } from "@/server/domain/text/zod-problems";
import { formatIssues, loadTierConfig, parseTierConfig, TierConfigError } from "./load";

const example = readFileSync(path.join(import.meta.dirname, "example.yaml"), "utf8");

function issuesOf(yaml: string): string {
  const result = parseTierConfig(yaml);
  if (result.ok) throw new Error("expected the config to be rejected");
  return formatIssues(result.issues);
}

describe("parseTierConfig", () => {
  it("accepts the example config", () => {
    const config = loadTierConfig(example);
    expect(config.escalation).toBe("escalate-then-decompose");
    expect(config.tiers.map((tier) => tier.name)).toEqual(["fast-cheap", "strong", "local-fallback"]);
    expect(config.prices["qwen2.5-coder:32b"]).toEqual({ inputPer1M: 0, outputPer1M: 0 });
  });

  it("reports every problem at once, each with its path", () => {
    const broken = example
      .replace("maxCostUsd: 2.00", "maxCostUsd: 0")
      .replace("    model: qwen2.5-coder:32b\n", "")
      .replace("maxIterations: 3", "maxIterations: 2.5\n    maxCost: 1")
      .replace("escalate-then-decompose", "escalate-sometimes")
      .replace("outputPer1M: 0.60", "outputPer1M: -1");
    expect(issuesOf(broken)).toBe(
      [
        'escalation: must be one of "escalate-then-decompose", "decompose-then-escalate", "escalate-only", "decompose-only"',
        "budgets.maxCostUsd: must be positive",
        "tiers[0].maxIterations: must be a whole number",
        "tiers[0].maxCost: unknown key",
        "tiers[2].model: required",
        'prices["gpt-4o-mini"].outputPer1M: must be at least 0',
      ].join("; "),
    );
  });

  it("reports an unknown provider with the providers a tier may use, together with other problems", () => {
    const broken = example
      .replace("provider: anthropic", "provider: bedrock")
      .replace("maxIterations: 5", "maxIterations: 0");
    expect(issuesOf(broken)).toBe(
      [
        'tiers[1].provider: must be one of "openai", "anthropic", "openai-compatible", "offline"',
        "tiers[1].maxIterations: must be positive",
      ].join("; "),
    );
  });

  it("reports cross-field problems alongside field errors", () => {
    const broken = example
      .replace("name: strong", "name: fast-cheap")
      .replace("model: claude-sonnet-4-20250514", "model: gpt-5")
      .replace("maxTokens: 2000000", "maxTokens: -5");
    expect(issuesOf(broken)).toBe(
      [
        "budgets.maxTokens: must be positive",
        "tiers[1].name: duplicate of tiers[0].name",
        'tiers[1].model: no price for "gpt-5" in prices',
      ].join("; "),
    );
  });

  it.each([
    ["", "(root): the file is empty"],
    ["# only a comment\n", "(root): the file is empty"],
    ["[]", "(root): must be an object"],
    ["escalation:\nbudgets: 3", "escalation: required; budgets: must be an object"],
    ["escalation: escalate-only\nbudgets: {}\ntiers: []\nprices: {}", "budgets.maxCostUsd: required"],
  ])("rejects %j", (yaml, first) => {
    expect(issuesOf(yaml).startsWith(first)).toBe(true);
  });

  it("asks for at least one tier and a non-empty name", () => {
    expect(issuesOf(example.replace(/tiers:[\s\S]*?# US/, "tiers: []\n# US"))).toContain(
      "tiers: must have at least 1 item(s)",
    );
    expect(issuesOf(example.replace("name: strong", 'name: "  "'))).toContain(
      "tiers[1].name: must not be empty",
    );
  });

  it("reports YAML syntax errors and duplicate keys with their line", () => {
    expect(issuesOf("tiers: [\n")).toMatch(/^\(yaml\): .*line/);
    expect(issuesOf("escalation: escalate-only\nescalation: decompose-only\n")).toMatch(
      /^\(yaml\): .*unique/i,
    );
  });

  it("throws a TierConfigError carrying the issues", () => {
    expect(() => loadTierConfig("budgets: 1")).toThrow(TierConfigError);
    try {
      loadTierConfig("budgets: 1");
    } catch (error) {
      expect(error instanceof TierConfigError && error.issues.map((issue) => issue.path)).toEqual([
        "escalation",
        "budgets",
        "tiers",
        "prices",
      ]);
    }
  });
});

describe("pathText", () => {
  it.each([
    [[], "(root)"],
    [["tiers", 2, "model"], "tiers[2].model"],
    [["prices", "openai/gpt-4o", "inputPer1M"], 'prices["openai/gpt-4o"].inputPer1M'],
    [["budgets", "maxCostUsd"], "budgets.maxCostUsd"],
  ])("%j → %s", (keys, expected) => {
    expect(pathText(keys)).toBe(expected);
  });
});

describe("tier modes and roles", () => {
  const base = [
    "escalation: escalate-then-decompose",
    "budgets: { maxCostUsd: 1, maxTokens: 1000, maxIterations: 5 }",
    "prices: { m: { inputPer1M: 1, outputPer1M: 1 } }",
    "tiers:",
  ];
  it("a full tier may name a model per role and turn Chaos on", () => {
    const result = parseTierConfig(
      [
        ...base,
        "  - { name: t, provider: openai, model: m, mode: full, chaos: true, maxIterations: 1, maxCostUsd: 1, maxTokens: 1,",
        "      roles: { critic: { provider: anthropic, model: m } } }",
      ].join("\n"),
    );
    expect(result.ok ? null : result.issues).toBeNull();
    expect(result.ok && result.config.tiers[0]).toMatchObject({
      mode: "full",
      chaos: true,
      roles: { critic: { provider: "anthropic", model: "m" } },
    });
  });

  it("a simple tier with roles is reported, with every other problem", () => {
    const result = parseTierConfig(
      [
        ...base,
        "  - { name: t, provider: openai, model: m, chaos: true, maxIterations: 1, maxCostUsd: 1, maxTokens: 1 }",
        "  - { name: u, provider: openai, model: m, mode: fancy, maxIterations: 1, maxCostUsd: 1, maxTokens: 1 }",
      ].join("\n"),
    );
    expect(result.ok).toBe(false);
    const paths = result.ok ? [] : result.issues.map((issue) => issue.path);
    expect(paths).toEqual(expect.arrayContaining(["tiers[0].mode", "tiers[1].mode"]));
    expect(result.ok ? "" : result.issues.map((issue) => issue.message).join(" ")).toContain(
      "roles and chaos need mode: full",
    );
  });
});
