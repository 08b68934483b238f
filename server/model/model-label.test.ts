import { describe, expect, it } from "vitest";
import { AiSdkModel } from "./ai-sdk-model";

describe("a model's label (shown to everyone in the team, viewers included)", () => {
  it("names the model and provider, never the server's address", () => {
    const model = new AiSdkModel({
      baseUrl: "http://10.1.2.3:11434/v1",
      modelName: "llama3",
      timeoutMs: 1_000,
    });
    expect(model.label).toBe("llama3 (OpenAI-compatible)");
    expect(model.label).not.toContain("10.1.2.3");
  });
});
