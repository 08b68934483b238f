import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeModelServer, startFakeModelServer } from "@/testing/fake-model/server";
import { AiSdkModel } from "./ai-sdk-model";

/**
 * Full mode's Librarian and Critic through the real AI SDK provider code, over HTTP to the fake
 * OpenAI-compatible server: one answer tool each, the prompt files in the instructions, the answer
 * parsed and recorded with its role.
 */

let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(async () => {
  await server.close();
});

const model = () => new AiSdkModel({ baseUrl: server.url, modelName: "fake-model", timeoutMs: 5_000 });
const request = { runId: "r", mode: "agent" as const, reasoning: "off" as const };

function sent(index: number) {
  const body = server.requests[index]?.body as {
    messages: { role: string; content: string }[];
    tools?: { function: { name: string } }[];
  };
  return { tools: (body.tools ?? []).map((tool) => tool.function.name), messages: body.messages };
}

describe("the Librarian", () => {
  it("ranks the listed files the intention names, with the prior attempts in its prompt", async () => {
    const before = server.requests.length;
    const { ranking, call } = await model().rankFiles({
      task: "fix the greeting",
      what: "fix greet.ts so it says hello",
      acceptance: "`npm test` passes",
      files: ["README.md", "src/greet.ts", "src/other.ts"],
      priorAttempts: "1. fs.edit src/greet.ts → FAILURE: the test still fails",
      request,
    });
    expect(ranking.files.map((file) => file.path)).toEqual(["src/greet.ts"]);
    expect(call).toMatchObject({ stage: "discover", role: "librarian", tools: [], offline: false });
    const { tools, messages } = sent(before);
    expect(tools).toEqual(["rank_files"]);
    const system = messages.find((message) => message.role === "system")?.content ?? "";
    expect(system).toContain("You are the Librarian");
    expect(system).toContain("## PRIOR ATTEMPTS");
    expect(system).toContain("the test still fails");
    expect(system).toContain("src/other.ts");
  });
});

describe("the Critic", () => {
  it("approves a change, and sends back one for a (critic-revise) intention with its issues", async () => {
    const before = server.requests.length;
    const input = {
      task: "t",
      acceptance: "",
      thought: "write it",
      action: "fs.write a.txt",
      change: "--- a.txt\n+++ a.txt\n+hello",
      request,
    };
    const approved = await model().critique({ ...input, what: "write a.txt" });
    expect(approved.review).toMatchObject({ verdict: "approve", issues: [] });
    expect(approved.call).toMatchObject({ stage: "verify", role: "critic" });
    const sentBack = await model().critique({ ...input, what: "write a.txt (critic-revise)" });
    expect(sentBack.review.verdict).toBe("revise");
    expect(sentBack.review.issues[0]).toContain("(critic-revise)");
    const { tools, messages } = sent(before);
    expect(tools).toEqual(["submit_review"]);
    const user = messages.find((message) => message.role === "user")?.content ?? "";
    expect(user).toContain("+hello");
  });
});
