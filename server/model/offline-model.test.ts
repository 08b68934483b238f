import { describe, expect, it } from "vitest";
import { estimateTokens } from "@/server/domain/text/tokens";
import { createOfflineModel, nextActionOffline, OFFLINE_MODEL_ID, planOffline } from "./offline-model";

describe("planOffline", () => {
  it("works a single step directly", () => {
    expect(planOffline("run `npm test`")).toMatchObject({ kind: "direct" });
  });

  it("decomposes a compound request into children with derived acceptance and owned scope", () => {
    const plan = planOffline(
      "create file notes.txt with hello, then run `cat notes.txt` and also show git status",
    );
    expect(plan).toEqual({
      kind: "decompose",
      thought: expect.stringContaining("3 separate steps"),
      children: [
        {
          what: "create file notes.txt with hello",
          acceptance: "the file `notes.txt` contains `hello`",
          ownedScope: ["notes.txt"],
        },
        {
          what: "run `cat notes.txt`",
          acceptance: "the command `cat notes.txt` exits 0",
          ownedScope: ["notes.txt"],
        },
        { what: "show git status", acceptance: "the step completes without error", ownedScope: [] },
      ],
    });
  });

  it("never proposes more than five children", () => {
    const plan = planOffline(Array.from({ length: 9 }, (_, index) => `step number${index}`).join(" and "));
    expect(plan.kind === "decompose" && plan.children.length).toBe(5);
  });
});

describe("nextActionOffline", () => {
  it("runs the explicit command and says so", () => {
    expect(nextActionOffline("run `npm test`", [])).toEqual({
      thought: "Run the command given in the step: npm test",
      tool: "shell.exec",
      input: { command: "npm test" },
    });
  });

  it("writes, edits and deletes files with the file tools", () => {
    expect(nextActionOffline("create `notes.txt` containing `hello`", [])).toMatchObject({
      tool: "fs.write",
      input: { path: "notes.txt", content: "hello\n" },
    });
    expect(nextActionOffline("replace `foo` with `bar` in `src/a.js`", [])).toMatchObject({
      tool: "fs.edit",
      input: { path: "src/a.js", search: "foo", replace: "bar" },
    });
    expect(nextActionOffline("delete `old.txt`", [])).toMatchObject({
      tool: "fs.delete",
      input: { path: "old.txt" },
    });
  });

  it("mentions a retry without changing a deterministic answer", () => {
    const action = nextActionOffline("run `npm test`", ["npm test → UNCLEAR: no output"]);
    expect(action.input).toEqual({ command: "npm test" });
    expect(action.thought).toContain("attempt 2");
  });
});

describe("createOfflineModel", () => {
  const model = createOfflineModel();

  it("identifies itself as the offline model", () => {
    expect(model).toMatchObject({
      id: OFFLINE_MODEL_ID,
      offline: true,
      label: "Built-in offline model (heuristics)",
    });
  });

  it("records an estimated call for plan()", async () => {
    const { plan, call } = await model.plan({ task: "list files and show git status" });
    expect(plan.kind).toBe("decompose");
    expect(call).toMatchObject({ stage: "decompose", modelId: OFFLINE_MODEL_ID, offline: true });
    expect(call.tokensIn).toBe(estimateTokens("list files and show git status"));
    expect(call.tokensOut).toBe(estimateTokens(JSON.stringify(plan)));
    expect(call.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it("records an estimated call for nextAction()", async () => {
    const { action, call } = await model.nextAction({
      task: "t",
      what: "list files",
      acceptance: "the step completes without error",
      previousAttempts: [],
    });
    expect(action).toMatchObject({ tool: "shell.exec", input: { command: "ls -la" } });
    expect(call).toMatchObject({ stage: "act", offline: true });
    expect(call.tokensIn).toBeGreaterThan(0);
  });

  it("honours an aborted signal", async () => {
    const controller = new AbortController();
    controller.abort(new Error("stopped"));
    await expect(model.plan({ task: "x" }, controller.signal)).rejects.toThrow("stopped");
  });

  it("estimates about four characters per token", () => {
    expect(estimateTokens("")).toBe(0);
    expect(estimateTokens("abcd")).toBe(1);
    expect(estimateTokens("abcde")).toBe(2);
  });
});
