import { describe, expect, it } from "vitest";
import { resolveModelSettings } from "./layers";
import { modelChoices, OFFLINE_CHOICE } from "./model-choices";

describe("the chat box's model choices", () => {
  it("offers the default with its source, the offline model and each named model once, without URLs or keys", () => {
    const resolved = resolveModelSettings({
      project: { provider: "openai", modelName: "gpt-4o", apiKey: "sk-secret-project-key-1234" },
      team: { provider: "openai", modelName: "gpt-4o-mini", baseUrl: "https://example.test/v1" },
    });
    const { defaultLabel, choices } = modelChoices(resolved, [
      { provider: "openai", modelName: "gpt-4o", from: "project" },
      { provider: null, modelName: "gpt-4o-mini", from: "team" },
      { provider: "anthropic", modelName: "claude-sonnet-4-20250514", from: "tier strong" },
      { provider: "offline", modelName: "offline", from: "tier zero" },
      { provider: null, modelName: "  ", from: "environment" },
    ]);
    expect(defaultLabel).toBe("default (gpt-4o — from project)");
    expect(choices.map((choice) => choice.key)).toEqual([
      "offline",
      "openai:gpt-4o",
      "openai:gpt-4o-mini",
      "anthropic:claude-sonnet-4-20250514",
    ]);
    expect(choices[0]).toEqual(OFFLINE_CHOICE);
    expect(choices[3]?.model).toEqual({ provider: "anthropic", modelName: "claude-sonnet-4-20250514" });
    const sent = JSON.stringify(choices);
    expect(sent).not.toContain("sk-secret");
    expect(sent).not.toContain("example.test");
  });

  it("says the default is the offline model when no server is configured", () => {
    const { defaultLabel, choices } = modelChoices(resolveModelSettings({}), []);
    expect(defaultLabel).toBe("default (built-in offline model — from default)");
    expect(choices).toEqual([OFFLINE_CHOICE]);
  });
});
