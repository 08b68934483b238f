import { describe, expect, it } from "vitest";
import { resolveModelSettings } from "./layers";
import { repoModelLayer } from "./resolve";

describe("the repository layer of the model settings", () => {
  const repo = repoModelLayer({ status: "ok", config: { model: { name: "repo-model", timeoutMs: 20_000 } } });

  it("beats the project and the team", () => {
    const resolved = resolveModelSettings({
      repo,
      project: { modelName: "project-model", timeoutMs: 5_000 },
      team: { modelName: "team-model" },
    });
    expect(resolved.modelName).toBe("repo-model");
    expect(resolved.timeoutMs).toBe(20_000);
    expect(resolved.sources.modelName).toBe("repo");
    expect(resolved.sources.timeoutMs).toBe("repo");
  });

  it("loses to the environment and to a run override", () => {
    expect(resolveModelSettings({ environment: { modelName: "env-model" }, repo }).sources.modelName).toBe(
      "environment",
    );
    expect(resolveModelSettings({ run: { modelName: "run-model" }, repo }).modelName).toBe("run-model");
  });

  it("keeps the team's server and key: the file names no server, so the key still goes where it was set", () => {
    const resolved = resolveModelSettings({
      repo,
      team: { provider: "openai-compatible", baseUrl: "http://model.internal/v1", apiKey: "sk-team" },
    });
    expect(resolved.apiKey).toBe("sk-team");
    expect(resolved.baseUrl).toBe("http://model.internal/v1");
    expect(resolved.keyWithheld).toBeUndefined();
  });

  it("sets nothing when the file is absent or invalid", () => {
    expect(repoModelLayer({ status: "absent" })).toEqual({});
    expect(repoModelLayer({ status: "invalid", problem: "x" })).toEqual({});
  });
});
