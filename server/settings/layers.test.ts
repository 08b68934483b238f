import { describe, expect, it } from "vitest";
import { type ModelLayers, type ResolvedModelSettings, resolveModelSettings } from "./layers";

type Expected = Partial<Omit<ResolvedModelSettings, "sources">> & {
  sources?: Partial<ResolvedModelSettings["sources"]>;
};

const TEAM_OPENAI = { provider: "openai", apiKey: "sk-team", modelName: "gpt-team" } as const;

const table: Array<[string, ModelLayers, Expected]> = [
  [
    "nothing set: defaults, offline (no base URL)",
    {},
    {
      provider: "openai-compatible",
      baseUrl: undefined,
      modelName: "gpt-4o-mini",
      timeoutMs: 60_000,
      apiKey: undefined,
      sources: {
        provider: "default",
        baseUrl: "default",
        modelName: "default",
        apiKey: "default",
        timeoutMs: "default",
      },
    },
  ],
  [
    "team only",
    { team: TEAM_OPENAI },
    {
      provider: "openai",
      baseUrl: "https://api.openai.com/v1",
      apiKey: "sk-team",
      modelName: "gpt-team",
      sources: { provider: "team", baseUrl: "default", apiKey: "team", modelName: "team" },
    },
  ],
  [
    "project beats team, field by field",
    { team: { ...TEAM_OPENAI, timeoutMs: 5_000 }, project: { modelName: "gpt-project" } },
    {
      provider: "openai",
      modelName: "gpt-project",
      apiKey: "sk-team",
      timeoutMs: 5_000,
      sources: { modelName: "project", apiKey: "team", timeoutMs: "team", provider: "team" },
    },
  ],
  [
    "environment beats project",
    {
      environment: { modelName: "env-model", timeoutMs: 1_000 },
      project: { modelName: "gpt-project", timeoutMs: 9_000 },
    },
    {
      modelName: "env-model",
      timeoutMs: 1_000,
      sources: { modelName: "environment", timeoutMs: "environment" },
    },
  ],
  [
    "run overrides beat everything",
    {
      run: { modelName: "run-model", timeoutMs: 2_000 },
      environment: { modelName: "env-model" },
      project: { modelName: "p" },
      team: { modelName: "t" },
    },
    { modelName: "run-model", timeoutMs: 2_000, sources: { modelName: "run", timeoutMs: "run" } },
  ],
  [
    "blank strings inherit instead of overriding",
    {
      project: { modelName: "  ", baseUrl: "" },
      team: { provider: "openai-compatible", baseUrl: "http://t/v1", modelName: "t" },
    },
    { modelName: "t", baseUrl: "http://t/v1", sources: { modelName: "team", baseUrl: "team" } },
  ],
  [
    "a team's OpenAI key is not sent to the Anthropic provider a project picked",
    { project: { provider: "anthropic", modelName: "claude-x" }, team: TEAM_OPENAI },
    {
      provider: "anthropic",
      baseUrl: "https://api.anthropic.com/v1",
      apiKey: undefined,
      keyWithheld: { from: "team", reason: "other-provider" },
      sources: { provider: "project", apiKey: "default" },
    },
  ],
  [
    "the project's own key for its own provider is used",
    { project: { provider: "anthropic", apiKey: "sk-ant" }, team: TEAM_OPENAI },
    { provider: "anthropic", apiKey: "sk-ant", sources: { apiKey: "project" } },
  ],
  [
    "a team key is withheld when a project points the provider at another server",
    { project: { baseUrl: "http://evil.example/v1" }, team: TEAM_OPENAI },
    {
      provider: "openai",
      baseUrl: "http://evil.example/v1",
      apiKey: undefined,
      keyWithheld: { from: "team", reason: "base-url-overridden" },
      sources: { baseUrl: "project", apiKey: "default" },
    },
  ],
  [
    "a team key is kept when the project repeats the team's base URL",
    {
      project: { baseUrl: "http://ollama:11434/v1" },
      team: { provider: "openai-compatible", baseUrl: "http://ollama:11434/v1", apiKey: "k-team" },
    },
    { apiKey: "k-team", baseUrl: "http://ollama:11434/v1", sources: { baseUrl: "project", apiKey: "team" } },
  ],
  [
    "a key on the same layer as the base URL travels with it",
    { project: { baseUrl: "http://mine/v1", apiKey: "k-project" }, team: TEAM_OPENAI },
    { apiKey: "k-project", baseUrl: "http://mine/v1", sources: { apiKey: "project", baseUrl: "project" } },
  ],
  [
    "the environment's server and key win over the project's (deployment-wide setting)",
    {
      environment: { provider: "openai-compatible", baseUrl: "http://env/v1", apiKey: "k-env" },
      project: { provider: "openai-compatible", baseUrl: "http://p/v1", apiKey: "k-p" },
    },
    { baseUrl: "http://env/v1", apiKey: "k-env", sources: { baseUrl: "environment", apiKey: "environment" } },
  ],
  [
    "the environment's base URL withholds a team key for that server",
    { environment: { provider: "openai-compatible", baseUrl: "http://env/v1" }, team: { apiKey: "k-team" } },
    {
      baseUrl: "http://env/v1",
      apiKey: undefined,
      keyWithheld: { from: "team", reason: "base-url-overridden" },
    },
  ],
  [
    "layers for another provider do not lend their base URL",
    { project: { provider: "openai" }, team: { provider: "openai-compatible", baseUrl: "http://ollama/v1" } },
    { provider: "openai", baseUrl: "https://api.openai.com/v1", sources: { baseUrl: "default" } },
  ],
];

describe("resolveModelSettings", () => {
  it.each(table)("%s", (_, layers, expected) => {
    const resolved = resolveModelSettings(layers);
    const { sources, ...values } = expected;
    expect(resolved).toMatchObject(values);
    if (sources) expect(resolved.sources).toMatchObject(sources);
    if (!("keyWithheld" in expected)) expect(resolved.keyWithheld).toBeUndefined();
    if ("apiKey" in expected && expected.apiKey === undefined) expect(resolved.apiKey).toBeUndefined();
    if ("baseUrl" in expected && expected.baseUrl === undefined) expect(resolved.baseUrl).toBeUndefined();
  });
});
