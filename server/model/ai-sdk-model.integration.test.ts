import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeModelServer, startFakeModelServer } from "@/testing/fake-model/server";
import { AiSdkModel, type AiSdkModelConfig } from "./ai-sdk-model";
import { ModelOutputError, ModelRequestError, ModelUnavailableError } from "./errors";

/**
 * The real AI SDK provider code against the fake OpenAI-compatible server over real HTTP on 127.0.0.1.
 * Each test picks its scenario with the `x-fake-scenario` header and reads only its own requests.
 */

let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(async () => {
  await server.close();
});

function modelFor(scenario: string, overrides: Partial<AiSdkModelConfig> = {}): AiSdkModel {
  return new AiSdkModel({
    baseUrl: server.url,
    modelName: "fake-model",
    timeoutMs: 5_000,
    ...overrides,
    headers: { "x-fake-scenario": scenario, ...overrides.headers },
  });
}

/** Runs `action` and returns the requests the fake server received meanwhile, with parsed bodies. */
async function captured<T>(action: () => Promise<T>) {
  const before = server.requests.length;
  const settled = await action().then(
    (value) => ({ value, error: undefined }),
    (error: unknown) => ({ value: undefined, error }),
  );
  const requests = server.requests.slice(before);
  const bodies = requests.map(
    (request) =>
      request.body as Record<string, unknown> & { messages: Array<{ role: string; content: string }> },
  );
  return { ...settled, requests, bodies };
}

const ACT_INPUT = {
  task: "set up the project",
  what: "run `npm ci`",
  acceptance: "the command `npm ci` exits 0",
  previousAttempts: [],
};

describe("plan() through a tool call", () => {
  it("decomposes a compound task (non-streaming) and records the server's usage", async () => {
    const model = modelFor("default");
    const { value, bodies, requests } = await captured(() =>
      model.plan({ task: "run `npm ci` and then run `npm test`" }),
    );
    expect(value?.plan).toEqual({
      kind: "decompose",
      thought: expect.any(String),
      children: [
        { what: "run `npm ci`", acceptance: "the command `npm ci` exits 0" },
        { what: "run `npm test`", acceptance: "the command `npm test` exits 0" },
      ],
    });
    const body = bodies[0];
    expect(requests).toHaveLength(1);
    expect(body).toMatchObject({ model: "fake-model", tool_choice: "required" });
    expect(body?.stream).not.toBe(true);
    const tools = body?.tools as Array<{ function: { name: string; parameters: unknown } }>;
    expect(tools.map((tool) => tool.function.name)).toEqual(["work_directly", "propose_decomposition"]);
    expect(JSON.stringify(tools[1]?.function.parameters)).toContain('"minItems":2');
    expect(body?.messages[0]).toMatchObject({
      role: "system",
      content: expect.stringContaining("if you can't verify it"),
    });
    expect(body?.messages[1]).toEqual({ role: "user", content: "run `npm ci` and then run `npm test`" });
    // The fake reports ceil(len(JSON(messages))/4) prompt tokens: the record carries the server's count.
    expect(value?.call).toMatchObject({
      stage: "decompose",
      modelId: "openai-compatible:fake-model",
      offline: false,
      tokensIn: Math.ceil(JSON.stringify(body?.messages).length / 4),
    });
    expect(value?.call.tokensOut).toBeGreaterThan(0);
    expect(value?.call.latencyMs).toBeGreaterThan(0);
  });

  it("works a single step directly", async () => {
    const { value } = await captured(() =>
      modelFor("default").plan({ task: "run `npm test`", repoSummary: "Node 20" }),
    );
    expect(value?.plan.kind).toBe("direct");
  });

  it("puts the repo summary into the system prompt", async () => {
    const { bodies } = await captured(() =>
      modelFor("default").plan({ task: "x", repoSummary: "a pnpm monorepo" }),
    );
    expect(bodies[0]?.messages[0]?.content).toContain("a pnpm monorepo");
  });

  it("can stream the decomposition too", async () => {
    const model = modelFor("default", { streamStages: ["decompose", "act"] });
    const { value, bodies } = await captured(() => model.plan({ task: "list files; show git status" }));
    expect(bodies[0]?.stream).toBe(true);
    expect(value?.plan).toMatchObject({
      kind: "decompose",
      children: [{ what: "list files" }, { what: "show git status" }],
    });
  });
});

describe("nextAction() through a streamed tool call", () => {
  it("returns the command from tool-call deltas and the usage chunk", async () => {
    const { value, bodies } = await captured(() => modelFor("default").nextAction(ACT_INPUT));
    expect(value?.action).toEqual({
      thought: "Run npm ci.",
      tool: "shell.exec",
      input: { command: "npm ci" },
    });
    expect(bodies[0]).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
      tool_choice: "required",
    });
    expect(bodies[0]?.messages.at(-1)).toEqual({ role: "user", content: "run `npm ci`" });
    expect(value?.call).toMatchObject({
      stage: "act",
      tokensIn: Math.ceil(JSON.stringify(bodies[0]?.messages).length / 4),
    });
  });

  it("shows earlier attempts in the system prompt", async () => {
    const input = { ...ACT_INPUT, previousAttempts: ["npm ci → FAILURE: exit 1"] };
    const { bodies } = await captured(() => modelFor("default").nextAction(input));
    expect(bodies[0]?.messages[0]?.content).toContain("1. npm ci → FAILURE: exit 1");
  });
});

describe("nextAction() with reads inside the turn", () => {
  const EDIT_INPUT = { ...ACT_INPUT, what: "replace `hello` with `goodbye` in `notes.txt`" };

  it.each(["openai-compatible", "anthropic"] as const)(
    "offers the registry's tools, reads a file, gets its content back in the same turn, then edits (%s wire)",
    async (provider) => {
      const reads: { tool: string; input: unknown }[] = [];
      const port = {
        maxReads: 8,
        run: async (call: { tool: string; input: unknown }) => {
          reads.push(call);
          return "     1\thello world";
        },
      };
      const model = modelFor("read-then-write", { provider, apiKey: "test-key" });
      const { value, bodies } = await captured(() => model.nextAction(EDIT_INPUT, undefined, port));
      expect(reads).toEqual([{ tool: "fs.read", input: { path: "notes.txt" } }]);
      expect(value?.action).toEqual({
        thought: "Edit notes.txt.",
        tool: "fs.edit",
        input: { path: "notes.txt", search: "hello", replace: "goodbye" },
      });
      expect(bodies).toHaveLength(2);
      const offered = JSON.stringify((bodies[0] as { tools?: unknown }).tools);
      for (const name of ["fs_read", "fs_write", "fs_edit", "fs_delete", "git_commit", "shell_exec"])
        expect(offered).toContain(`"${name}"`);
      expect(offered).toContain('"select_active_intent"');
      // The read's result went back to the model in the second request of the same turn.
      expect(JSON.stringify(bodies[1]?.messages)).toContain("hello world");
      expect(value?.call.stage).toBe("act");
    },
  );

  it("without a read port, a read is the action itself (a QUERY cycle)", async () => {
    const { value, bodies } = await captured(() => modelFor("read-then-write").nextAction(EDIT_INPUT));
    expect(bodies).toHaveLength(1);
    expect(value?.action).toMatchObject({ tool: "fs.read", input: { path: "notes.txt" } });
  });
});

describe("one corrective re-ask", () => {
  it("recovers from an invalid tool input and sums the tokens of both requests", async () => {
    const { value, bodies } = await captured(() =>
      modelFor("malformed-then-valid").plan({ task: "list files and show git status" }),
    );
    expect(bodies).toHaveLength(2);
    expect(bodies[1]?.messages.at(-1)?.content).toMatch(
      /do not match its schema:\n[\s\S]*✖ Too small.*\n {2}→ at children\n/,
    );
    expect(value?.plan).toMatchObject({
      kind: "decompose",
      children: [{ what: "list files" }, { what: "show git status" }],
    });
    const first = Math.ceil(JSON.stringify(bodies[0]?.messages).length / 4);
    const second = Math.ceil(JSON.stringify(bodies[1]?.messages).length / 4);
    expect(value?.call.tokensIn).toBe(first + second);
  });

  it("recovers from prose instead of a tool call on the streaming path", async () => {
    const { value, bodies } = await captured(() => modelFor("text-instead-of-tool").nextAction(ACT_INPUT));
    expect(bodies).toHaveLength(2);
    expect(bodies[1]?.messages.at(-1)?.content).toMatch(
      /you answered with text instead of calling fs_read or .* or shell_exec or select_active_intent: "Sure! I would just do it."/,
    );
    expect(value?.action.input).toEqual({ command: "npm ci" });
  });

  it.each([
    ["plan", (model: AiSdkModel): Promise<unknown> => model.plan({ task: "a b and c d" })],
    ["nextAction", (model: AiSdkModel): Promise<unknown> => model.nextAction(ACT_INPUT)],
  ])("gives up after the re-ask with ModelOutputError (%s)", async (_, call) => {
    const { error, requests } = await captured(() => call(modelFor("always-malformed")));
    expect(requests).toHaveLength(2);
    expect(error).toBeInstanceOf(ModelOutputError);
    expect((error as ModelOutputError).message).toMatch(
      /after one corrective re-ask: the arguments of \w+ do not match its schema/,
    );
    expect((error as ModelOutputError).call.tokensIn).toBeGreaterThan(0);
  });
});

describe("failures become typed, key-free errors", () => {
  const apiKey = "sk-integration-secret-123";

  it("HTTP 500 → ModelUnavailableError naming the status and the server's message", async () => {
    for (const streamStages of [[], ["decompose"]] as const) {
      const { error } = await captured(() =>
        modelFor("http-500", { apiKey, streamStages }).plan({ task: "x" }),
      );
      expect(error).toBeInstanceOf(ModelUnavailableError);
      expect((error as Error).message).toBe("The model server answered HTTP 500: The fake model crashed.");
    }
  });

  it("HTTP 401 → ModelRequestError without the key", async () => {
    const { error } = await captured(() => modelFor("http-401", { apiKey }).nextAction(ACT_INPUT));
    expect(error).toBeInstanceOf(ModelRequestError);
    expect((error as Error).message).toContain("HTTP 401");
    expect((error as Error).message).not.toContain(apiKey);
  });

  it("server down (closed port) → ModelUnavailableError (ECONNREFUSED) without the key", async () => {
    const port = await closedPort();
    const baseUrl = `http://127.0.0.1:${port}/v1`;
    for (const stage of ["plan", "act"] as const) {
      const model = new AiSdkModel({ baseUrl, apiKey, modelName: "fake-model", timeoutMs: 5_000 });
      const error = await (stage === "plan" ? model.plan({ task: "x" }) : model.nextAction(ACT_INPUT)).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ModelUnavailableError);
      expect((error as Error).message).toBe("The model server is not reachable (ECONNREFUSED)");
      expect(
        JSON.stringify({ message: (error as Error).message, stack: (error as Error).stack }),
      ).not.toContain(apiKey);
    }
  });

  it("a server slower than timeoutMs → ModelUnavailableError (timeout), promptly", async () => {
    const model = modelFor("slow", { timeoutMs: 200, headers: { "x-fake-delay-ms": "3000" } });
    const startedAt = performance.now();
    const { error } = await captured(() => model.nextAction(ACT_INPUT));
    expect(error).toMatchObject({ name: "ModelUnavailableError", reason: "timeout" });
    expect((error as Error).message).toMatch(/did not answer within 200 ms \(timeout\)$/);
    expect(performance.now() - startedAt).toBeLessThan(2_000);
  });

  it("a caller's abort propagates as the caller's reason, not as a model failure", async () => {
    const controller = new AbortController();
    const model = modelFor("slow", { headers: { "x-fake-delay-ms": "3000" } });
    setTimeout(() => controller.abort(new Error("run stopped by the user")), 100);
    const error = await model.plan({ task: "x" }, controller.signal).catch((e: unknown) => e);
    expect(error).toEqual(new Error("run stopped by the user"));
  });
});

describe("authentication", () => {
  it("sends the API key as a bearer token when one is set, and nothing otherwise", async () => {
    const withKey = await captured(() => modelFor("default", { apiKey: "sk-test-key" }).plan({ task: "x" }));
    expect(withKey.requests[0]?.headers.authorization).toBe("Bearer sk-test-key");
    const withoutKey = await captured(() => modelFor("default").plan({ task: "x" }));
    expect(withoutKey.requests[0]?.headers.authorization).toBeUndefined();
  });
});

async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (typeof address !== "object" || address === null) throw new Error("no port");
  return address.port;
}

describe("plan() when decomposition is required", () => {
  it("offers only propose_decomposition and cannot_decompose, with the failure summary in the prompt", async () => {
    const model = modelFor("default");
    const { value, bodies } = await captured(() =>
      model.plan({
        task: "run `make`",
        mustDecompose: true,
        failureSummary: "2 failed cycles (last: exit code 2)",
      }),
    );
    expect(value?.plan).toEqual({ kind: "atomic", thought: expect.stringContaining("indivisible") });
    const offered = (bodies[0]?.tools ?? []) as Array<{ function: { name: string } }>;
    const tools = offered.map((entry) => entry.function.name);
    expect(tools.sort()).toEqual(["cannot_decompose", "propose_decomposition"]);
    expect(JSON.stringify(bodies[0]?.messages)).toContain("2 failed cycles (last: exit code 2)");
  });

  it("still splits a compound intention", async () => {
    const { value } = await captured(() =>
      modelFor("default").plan({ task: "run `a` and then run `b`", mustDecompose: true }),
    );
    expect(value?.plan).toMatchObject({
      kind: "decompose",
      children: [{ what: "run `a`" }, { what: "run `b`" }],
    });
  });
});
