import { describe, expect, it } from "vitest";
import { SIMPLE_TIER_DEFAULTS, type Tier } from "@/server/model/tiers/schema";
import { resolveModelSettings } from "./layers";
import { tierProblem } from "./tier-models";

/** Which tiers the layered settings can serve: a tier is never quietly served by another model. */
const tier = (provider: Tier["provider"], model = "m"): Tier => ({
  name: "t",
  provider,
  model,
  ...SIMPLE_TIER_DEFAULTS,
  maxIterations: 1,
  maxCostUsd: 1,
  maxTokens: 1,
});

const settingsFor = (provider: Tier["provider"], environment = {}) =>
  resolveModelSettings({
    run: provider === "offline" ? {} : { provider, modelName: "m" },
    environment,
  });

describe("tierProblem", () => {
  it("an OpenAI-compatible tier needs a server; it never becomes the offline model", () => {
    expect(tierProblem(tier("openai-compatible"), settingsFor("openai-compatible"))).toMatch(
      /tier "t" \(openai-compatible m\) has no server/,
    );
    const served = settingsFor("openai-compatible", { baseUrl: "http://127.0.0.1:4010/v1" });
    expect(tierProblem(tier("openai-compatible"), served)).toBeNull();
  });

  it("OpenAI and Anthropic tiers need a key for their own provider", () => {
    expect(tierProblem(tier("anthropic"), settingsFor("anthropic"))).toMatch(/has no API key.*anthropic/);
    // A key the environment gave another provider is not this tier's key.
    const otherKey = settingsFor("openai", { provider: "anthropic", apiKey: "sk-ant-x" });
    expect(tierProblem(tier("openai"), otherKey)).toMatch(/has no API key/);
    const ownKey = settingsFor("openai", { provider: "openai", apiKey: "sk-x" });
    expect(tierProblem(tier("openai"), ownKey)).toBeNull();
  });
});
