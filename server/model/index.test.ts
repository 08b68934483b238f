import { describe, expect, it } from "vitest";
import { AiSdkModel, createAgentModel, OFFLINE_MODEL_ID } from "./index";

describe("createAgentModel", () => {
  it("uses the offline model without a base URL", () => {
    const model = createAgentModel({ modelName: "gpt-4o-mini", timeoutMs: 1000 });
    expect(model).toMatchObject({ id: OFFLINE_MODEL_ID, offline: true });
    expect(createAgentModel({ baseUrl: "  ", modelName: "m", timeoutMs: 1000 }).offline).toBe(true);
  });

  it("uses the AI SDK model with a base URL, labelled without credentials", () => {
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
      label: "gpt-4o-mini at http://127.0.0.1:1/v1",
    });
  });
});
