import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeModelServer, startFakeModelServer } from "@/testing/fake-model/server";
import { AiSdkModel } from "./ai-sdk-model";
import { ModelOutputError } from "./errors";

/**
 * Seed 000's IntentDiscoverer and ContractBuilder through the real AI SDK provider code, over HTTP to
 * the fake OpenAI-compatible server: what is sent (one answer tool, no workspace tools, the prompt
 * files) and what comes back (parsed, never cast).
 */

let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(async () => {
  await server.close();
});

const model = (scenario: string) =>
  new AiSdkModel({
    baseUrl: server.url,
    modelName: "fake-model",
    timeoutMs: 5_000,
    headers: { "x-fake-scenario": scenario },
  });

function toolNamesOf(body: unknown): string[] {
  const tools = (body as { tools?: { function: { name: string } }[] }).tools ?? [];
  return tools.map((tool) => tool.function.name);
}

describe("discoverIntent", () => {
  it("reads the request through report_intent, with the workspace summary in the instructions", async () => {
    const before = server.requests.length;
    const { intent, call } = await model("default").discoverIntent({
      prompt: "Fix the crash in `src/app.ts` without changing the API",
      repoSummary: "12 tracked files, mostly TypeScript.",
      request: { runId: "r", mode: "agent", reasoning: "off" },
    });
    expect(intent).toEqual({
      kind: "fix",
      action: "fix",
      targets: ["src/app.ts"],
      constraints: ["without changing the API"],
      source: "model",
    });
    expect(call).toMatchObject({ stage: "discover", tools: [], offline: false });
    const body = server.requests.slice(before)[0]?.body as { messages: { role: string; content: string }[] };
    expect(toolNamesOf(body)).toEqual(["report_intent"]);
    expect(body.messages[0]?.content).toContain("12 tracked files, mostly TypeScript.");
  });

  it("a model that never calls report_intent fails clearly after one corrective re-ask", async () => {
    const before = server.requests.length;
    const failed = await model("always-malformed")
      .discoverIntent({ prompt: "add a README" })
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ModelOutputError);
    expect(String(failed)).toMatch(/report_intent/);
    expect(server.requests.length - before).toBe(2);
  });
});

describe("buildContract", () => {
  it("gets checks for a file step and keeps the acceptance and task in what it sends", async () => {
    const before = server.requests.length;
    const { contract, call } = await model("default").buildContract({
      task: "greet people",
      what: "create `hello.txt` containing `hello world`",
      acceptance: "the greeting is there",
    });
    expect(contract.criteria).toEqual([{ kind: "FILE_CONTAINS", path: "hello.txt", text: "hello world" }]);
    expect(contract.dropped).toEqual([]);
    expect(call.stage).toBe("contract");
    const body = server.requests.slice(before)[0]?.body as { messages: { role: string; content: string }[] };
    expect(toolNamesOf(body)).toEqual(["propose_contract"]);
    expect(body.messages[0]?.content).toContain("greet people");
    expect(body.messages.at(-1)?.content).toContain("Acceptance: the greeting is there");
  });

  it("answers an intention with nothing to check with an empty contract", async () => {
    const { contract } = await model("default").buildContract({
      task: "t",
      what: "tidy up",
      acceptance: "it looks tidy",
    });
    expect(contract.criteria).toEqual([]);
  });
});
