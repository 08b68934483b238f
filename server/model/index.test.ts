import { describe, expect, it } from "vitest";
import { AiSdkModel, createAgentModel, OFFLINE_MODEL_ID } from "./index";

describe("createAgentModel", () => {
  it("uses the offline model without a base URL", () => {
    const model = createAgentModel({ modelName: "gpt-4o-mini", timeoutMs: 1000 });
    expect(model).toMatchObject({ id: OFFLINE_MODEL_ID, offline: true });
    expect(createAgentModel({ baseUrl: "  ", modelName: "m", timeoutMs: 1000 }).offline).toBe(true);
  });

  it("uses the AI SDK model with a base URL, labelled with its provider, never its URL or credentials", () => {
    const model = createAgentModel({
      baseUrl: "http://user:pw@127.0.0.1:1/v1",
      apiKey: "sk-x",
      modelName: "gpt-4o-mini",
      timeoutMs: 1000,
    });
    expect(model).toBeInstanceOf(AiSdkModel);
    expect(model).toMatchObject({
      id: "openai-compatible:gpt-4o-mini",
      offline: false,
      label: "gpt-4o-mini (OpenAI-compatible)",
    });
  });

  it("builds OpenAI and Anthropic models on their public APIs when no base URL is given", () => {
    const openai = createAgentModel({ provider: "openai", apiKey: "k", modelName: "gpt-x", timeoutMs: 1000 });
    expect(openai).toMatchObject({
      id: "openai:gpt-x",
      offline: false,
      label: "gpt-x (OpenAI)",
    });
    const anthropic = createAgentModel({ provider: "anthropic", modelName: "claude-x", timeoutMs: 1000 });
    expect(anthropic).toMatchObject({
      id: "anthropic:claude-x",
      provider: "anthropic",
      label: "claude-x (Anthropic)",
    });
  });
});
