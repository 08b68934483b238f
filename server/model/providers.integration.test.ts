import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROVIDER_IDS, type ProviderId } from "@/server/domain/vocabulary/providers";
import { type FakeModelServer, startFakeModelServer } from "@/testing/fake-model/server";
import { AiSdkModel } from "./ai-sdk-model";
import { testConnection } from "./connection-test";
import { ModelRequestError, ModelUnavailableError } from "./errors";

/**
 * Each real AI SDK provider package (`@ai-sdk/openai`, `@ai-sdk/anthropic`, `@ai-sdk/openai-compatible`)
 * over real HTTP against the fake server, which speaks both OpenAI's and Anthropic's wire formats.
 */

let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(async () => {
  await server.close();
});

const KEY = "sk-provider-test-0123456789";
const EXPECTED_PATH: Record<ProviderId, string> = {
  openai: "/v1/chat/completions",
  "openai-compatible": "/v1/chat/completions",
  anthropic: "/v1/messages",
};

function model(provider: ProviderId, scenario = "default", apiKey = KEY) {
  return new AiSdkModel({
    provider,
    baseUrl: server.url,
    apiKey,
    modelName: "fake-model",
    timeoutMs: 5_000,
    headers: { "x-fake-scenario": scenario },
  });
}

function since(before: number) {
  return server.requests.slice(before);
}

describe.each(PROVIDER_IDS)("the %s provider against the fake server", (provider) => {
  it("plans with a tool call (JSON) and sends the key the provider's way", async () => {
    const before = server.requests.length;
    const { plan, call } = await model(provider).plan({ task: "run `npm ci` and then run `npm test`" });
    expect(plan).toMatchObject({
      kind: "decompose",
      children: [{ what: "run `npm ci`" }, { what: "run `npm test`" }],
    });
    expect(call).toMatchObject({ modelId: `${provider}:fake-model`, offline: false });
    expect(call.tokensIn).toBeGreaterThan(0);
    const [request] = since(before);
    expect(request?.path).toBe(EXPECTED_PATH[provider]);
    const sentKey = provider === "anthropic" ? request?.headers["x-api-key"] : request?.headers.authorization;
    expect(sentKey).toBe(provider === "anthropic" ? KEY : `Bearer ${KEY}`);
  });

  it("acts with a streamed tool call", async () => {
    const before = server.requests.length;
    const { action } = await model(provider).nextAction({
      task: "set up",
      what: "run `npm ci`",
      acceptance: "the command `npm ci` exits 0",
      previousAttempts: [],
    });
    expect(action).toEqual({ thought: "Run npm ci.", tool: "shell.exec", input: { command: "npm ci" } });
    expect((since(before)[0]?.body as { stream?: boolean } | undefined)?.stream).toBe(true);
  });

  it("turns an HTTP 500 into ModelUnavailableError and a rejected key into ModelRequestError without the key", async () => {
    const crashed = await model(provider, "http-500")
      .plan({ task: "run `ls`" })
      .catch((error: unknown) => error);
    expect(crashed).toBeInstanceOf(ModelUnavailableError);
    expect((crashed as ModelUnavailableError).reason).toBe("server-error");
    const badKey = "bad-key-abcdef123456";
    const refused = await model(provider, "default", badKey)
      .plan({ task: "run `ls`" })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ModelRequestError);
    expect((refused as ModelRequestError).status).toBe(401);
    expect((refused as Error).message).not.toContain(badKey);
  });

  it("passes a connection test and reports each failure clearly", async () => {
    const base = { provider, baseUrl: server.url, apiKey: KEY, modelName: "fake-model", timeoutMs: 5_000 };
    const ok = await testConnection(base);
    expect(ok).toMatchObject({ ok: true, model: "fake-model", server: server.url });
    expect(ok.latencyMs).toBeGreaterThanOrEqual(0);

    const badKey = await testConnection({ ...base, apiKey: "bad-key-abcdef123456" });
    expect(badKey).toMatchObject({ ok: false, reason: "bad-key" });
    expect(badKey.ok || badKey.message).toMatch(/HTTP 401.*Check the API key/);
    expect(JSON.stringify(badKey)).not.toContain("bad-key-abcdef123456");

    const unknownModel = await testConnection({ ...base, modelName: "no-such-model" });
    expect(unknownModel).toMatchObject({ ok: false, reason: "unknown-model" });

    const slow = await testConnection({
      ...base,
      timeoutMs: 300,
      headers: { "x-fake-scenario": "slow", "x-fake-delay-ms": "2000" },
    });
    expect(slow).toMatchObject({ ok: false, reason: "timeout" });
    expect(slow.ok || slow.message).toContain("300 ms");
  });
});

/** A port nothing listens on: bound by the OS, then released. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe("connection test failures that are not the server's answer", () => {
  it("reports an unreachable server", async () => {
    const result = await testConnection({
      provider: "openai-compatible",
      baseUrl: `http://127.0.0.1:${await closedPort()}/v1`,
      modelName: "fake-model",
      timeoutMs: 3_000,
    });
    expect(result).toMatchObject({ ok: false, reason: "unreachable" });
    expect(result.ok || result.message).toContain("ECONNREFUSED");
  });

  it("asks for a base URL when an OpenAI-compatible provider has none", async () => {
    const result = await testConnection({ provider: "openai-compatible", modelName: "m", timeoutMs: 1_000 });
    expect(result).toMatchObject({ ok: false, reason: "no-server" });
  });
});
