import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeModelServer, startFakeModelServer } from "./server";

/** The fake server's wire format, checked with plain fetch so it does not depend on the AI SDK's leniency. */

let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(async () => {
  await server.close();
});

const chat = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

const runCommandTool = {
  type: "function",
  function: { name: "shell_exec", parameters: { type: "object" } },
};
const actRequest = (stream: boolean) => ({
  model: "fake-model",
  stream,
  messages: [{ role: "user", content: "run `ls -la`" }],
  tools: [runCommandTool],
});

describe("fake OpenAI-compatible server", () => {
  it("lists its models and answers a health check", async () => {
    expect(await (await fetch(`${server.url}/models`)).json()).toMatchObject({
      object: "list",
      data: [{ id: "fake-model" }],
    });
    expect(await (await fetch(server.url)).json()).toMatchObject({ status: "ok", scenario: "default" });
  });

  it("answers a non-streaming tool call as one JSON body", async () => {
    const response = await chat(actRequest(false));
    expect(response.headers.get("content-type")).toBe("application/json");
    const body = await response.json();
    expect(body.choices[0]).toMatchObject({
      finish_reason: "tool_calls",
      message: { role: "assistant", content: null },
    });
    expect(JSON.parse(body.choices[0].message.tool_calls[0].function.arguments)).toMatchObject({
      command: "ls -la",
    });
    expect(body.usage.total_tokens).toBe(body.usage.prompt_tokens + body.usage.completion_tokens);
  });

  it("streams SSE chunks: split arguments, a finish chunk, a usage chunk, then [DONE]", async () => {
    const response = await chat(actRequest(true));
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const events = (await response.text()).split("\n\n").filter(Boolean);
    expect(events.every((event) => event.startsWith("data: "))).toBe(true);
    expect(events.at(-1)).toBe("data: [DONE]");
    const chunks = events.slice(0, -1).map((event) => JSON.parse(event.slice("data: ".length)));
    const toolDeltas = chunks.flatMap((chunk) =>
      chunk.choices.flatMap((choice: { delta: { tool_calls?: unknown[] } }) => choice.delta.tool_calls ?? []),
    );
    expect(toolDeltas[0]).toMatchObject({
      index: 0,
      id: expect.any(String),
      function: { name: "shell_exec", arguments: "" },
    });
    expect(toolDeltas.length).toBeGreaterThanOrEqual(3);
    const args = toolDeltas
      .map((delta: { function: { arguments?: string } }) => delta.function.arguments ?? "")
      .join("");
    expect(JSON.parse(args)).toEqual({ thought: "Run ls -la.", command: "ls -la" });
    expect(chunks.at(-2).choices[0].finish_reason).toBe("tool_calls");
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: expect.any(Number) } });
  });

  it("streams plain text as content deltas", async () => {
    const response = await chat({ model: "m", stream: true, messages: [{ role: "user", content: "hello" }] });
    const chunks = (await response.text())
      .split("\n\n")
      .filter((event) => event.startsWith("data: {"))
      .map((event) => JSON.parse(event.slice(6)));
    const text = chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? "").join("");
    expect(text).toContain("fake model server");
  });

  it.each([
    ["invalid JSON", "{bad", {}, 400, /not valid JSON/],
    ["no model", { messages: [{ role: "user", content: "x" }] }, {}, 400, /model parameter/],
    ["no messages", { model: "m", messages: [] }, {}, 400, /messages/],
    [
      "unknown scenario",
      actRequest(false),
      { "x-fake-scenario": "nope" },
      400,
      /Unknown fake scenario "nope"/,
    ],
    ["scripted 500", actRequest(false), { "x-fake-scenario": "http-500" }, 500, /crashed/],
  ])("answers %s with an OpenAI-style error", async (_, body, headers, status, message) => {
    const response = await chat(body, headers);
    expect(response.status).toBe(status);
    const json = await response.json();
    expect(json.error.message).toMatch(message);
    expect(json.error).toHaveProperty("type");
  });

  it("answers unknown paths with 404 and records every request with its scenario", async () => {
    const before = server.requests.length;
    expect((await fetch(`${server.url}/embeddings`, { method: "POST", body: "{}" })).status).toBe(404);
    await chat(actRequest(false), { "x-fake-scenario": "malformed-then-valid", authorization: "Bearer k" });
    const recorded = server.requests.slice(before);
    expect(recorded.map((request) => request.path)).toEqual(["/v1/embeddings", "/v1/chat/completions"]);
    expect(recorded[1]).toMatchObject({
      scenario: "malformed-then-valid",
      headers: { authorization: "Bearer k" },
    });
  });

  it("uses the scenario it was started with when no header picks one", async () => {
    const failing = await startFakeModelServer({ scenario: "http-500" });
    try {
      const response = await fetch(`${failing.url}/chat/completions`, {
        method: "POST",
        body: JSON.stringify(actRequest(false)),
      });
      expect(response.status).toBe(500);
    } finally {
      await failing.close();
    }
  });

  it("closes promptly even while a slow reply is pending", async () => {
    const slow = await startFakeModelServer({ scenario: "slow" });
    const pending = fetch(`${slow.url}/chat/completions`, {
      method: "POST",
      body: JSON.stringify(actRequest(false)),
    }).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const startedAt = performance.now();
    await slow.close();
    expect(performance.now() - startedAt).toBeLessThan(1_000);
    expect(await pending).toBeInstanceOf(Error);
  });

  it("refuses an unknown scenario at start", async () => {
    await expect(startFakeModelServer({ scenario: "nope" })).rejects.toThrow(/Unknown fake scenario/);
  });
});
