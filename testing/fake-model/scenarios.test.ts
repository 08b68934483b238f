import { describe, expect, it } from "vitest";
import type { ChatRequest, FakeReply, Scenario } from "./request";
import { replyFor, SCENARIOS } from "./scenarios";
import { splitSteps } from "./steps";
import { completionChunks, pieces, usageFor } from "./wire";

function request(toolNames: string[], ...userTexts: string[]): ChatRequest {
  const messages = [
    { role: "system", content: "instructions" },
    ...userTexts.map((content) => ({ role: "user", content })),
  ];
  return { model: "fake-model", messages, toolNames, stream: false, headers: {} };
}

const scenario = (name: string): Scenario => {
  const found = SCENARIOS[name];
  if (!found) throw new Error(`no scenario ${name}`);
  return found;
};

const PLAN = ["work_directly", "propose_decomposition"];

function firstCall(reply: FakeReply) {
  if (reply.type !== "tool-calls") throw new Error(`expected tool calls, got ${reply.type}`);
  return reply.calls[0];
}

describe("file steps: read first, then write or edit", () => {
  const ACT = ["fs_read", "fs_write", "fs_edit", "shell_exec"];
  const withToolResult = (base: ChatRequest, dialect: "openai" | "anthropic"): ChatRequest => ({
    ...base,
    messages: [
      ...base.messages,
      { role: "assistant", content: [] },
      dialect === "openai"
        ? { role: "tool", content: "     1\thello" }
        : { role: "user", content: [{ type: "tool_result", content: "     1\thello" }] },
    ],
  });

  it.each(["openai", "anthropic"] as const)("reads, then edits once the read came back (%s)", (dialect) => {
    const first = request(ACT, "replace `hello` with `bye` in `notes.txt`");
    expect(firstCall(replyFor(scenario("default"), first))).toEqual({
      name: "fs_read",
      arguments: { thought: "Read notes.txt before changing it.", path: "notes.txt" },
    });
    expect(firstCall(replyFor(scenario("read-then-write"), withToolResult(first, dialect)))).toEqual({
      name: "fs_edit",
      arguments: { thought: "Edit notes.txt.", path: "notes.txt", search: "hello", replace: "bye" },
    });
  });

  it("writes a created file and derives a FILE_CONTAINS acceptance when planning", () => {
    const write = withToolResult(request(ACT, "create `a.txt` containing `one`"), "openai");
    expect(firstCall(replyFor(scenario("default"), write))).toMatchObject({
      name: "fs_write",
      arguments: { path: "a.txt", content: "one\n" },
    });
    const plan = firstCall(
      replyFor(
        scenario("default"),
        request(PLAN, "create `a.txt` containing `one` and then run `cat a.txt`"),
      ),
    );
    expect(plan?.arguments).toMatchObject({
      children: [
        { acceptance: "the file `a.txt` contains `one`" },
        { acceptance: "the command `cat a.txt` exits 0" },
      ],
    });
  });
});

describe("default scenario", () => {
  it("proposes an owned_scope for a step that names a place in backticks", () => {
    const call = firstCall(
      replyFor(scenario("default"), request(PLAN, "write notes to `notes/` and then run `ls notes`")),
    );
    expect(call?.arguments).toMatchObject({
      children: [
        { what: "write notes to `notes/`", owned_scope: ["notes/**"] },
        { what: "run `ls notes`", acceptance: "the command `ls notes` exits 0" },
      ],
    });
    const children = (call?.arguments as { children?: object[] } | undefined)?.children ?? [];
    expect(children[1]).not.toHaveProperty("owned_scope");
  });

  it("decomposes a compound task, keeping backticked commands and deriving acceptance", () => {
    const call = firstCall(
      replyFor(scenario("default"), request(PLAN, "run `npm ci` and then run `npm test`; list files")),
    );
    expect(call).toEqual({
      name: "propose_decomposition",
      arguments: {
        thought: expect.any(String),
        children: [
          { what: "run `npm ci`", acceptance: "the command `npm ci` exits 0" },
          { what: "run `npm test`", acceptance: "the command `npm test` exits 0" },
          { what: "list files", acceptance: "the step completes without error" },
        ],
      },
    });
  });

  it("works a single step directly, so children do not recurse forever", () => {
    expect(firstCall(replyFor(scenario("default"), request(PLAN, "run `npm test`")))?.name).toBe(
      "work_directly",
    );
  });

  it("runs the backticked command of the intention, else echo done", () => {
    const act = (what: string) =>
      firstCall(replyFor(scenario("default"), request(["shell_exec"], what)))?.arguments;
    expect(act("run `ls -la`")).toMatchObject({ command: "ls -la" });
    expect(act("tidy up")).toMatchObject({ command: "echo done" });
  });

  it("answers text when no known tool is offered", () => {
    expect(replyFor(scenario("default"), request([], "hi")).type).toBe("text");
  });
});

describe("failure scenarios", () => {
  it("malformed-then-valid: invalid on the first ask, valid on the re-ask", () => {
    const first = firstCall(replyFor(scenario("malformed-then-valid"), request(["shell_exec"], "run `ls`")));
    expect(first?.arguments).not.toHaveProperty("command");
    const second = firstCall(
      replyFor(scenario("malformed-then-valid"), request(["shell_exec"], "run `ls`", "fix it")),
    );
    expect(second?.arguments).toMatchObject({ command: "ls" });
  });

  it("always-malformed stays malformed after a re-ask", () => {
    const call = firstCall(replyFor(scenario("always-malformed"), request(PLAN, "a b and c d", "fix it")));
    expect(call?.arguments).toMatchObject({ children: [{ what: "everything at once" }] });
  });

  it("text-instead-of-tool answers prose first, then a tool call", () => {
    expect(replyFor(scenario("text-instead-of-tool"), request(["shell_exec"], "run `ls`")).type).toBe("text");
    expect(replyFor(scenario("text-instead-of-tool"), request(["shell_exec"], "run `ls`", "fix")).type).toBe(
      "tool-calls",
    );
  });

  it("http-500 and http-401 answer with errors", () => {
    expect(replyFor(scenario("http-500"), request(PLAN, "x"))).toMatchObject({
      type: "http-error",
      status: 500,
    });
    expect(replyFor(scenario("http-401"), request(PLAN, "x"))).toMatchObject({
      type: "http-error",
      status: 401,
    });
  });

  it("slow delays the default answer by x-fake-delay-ms", () => {
    const slow = { ...request(["shell_exec"], "run `ls`"), headers: { "x-fake-delay-ms": "25" } };
    expect(replyFor(scenario("slow"), slow)).toMatchObject({
      type: "delay",
      ms: 25,
      reply: { type: "tool-calls" },
    });
  });
});

describe("splitSteps", () => {
  it("splits on ; newlines and/then/also but not inside backticks", () => {
    expect(splitSteps("a `x and y`; b\nc then d also e")).toEqual(["a `x and y`", "b", "c", "d", "e"]);
  });

  it("caps at five steps", () => {
    expect(splitSteps("1;2;3;4;5;6;7")).toEqual(["1", "2", "3", "4", "5; 6; 7"]);
  });
});

describe("wire chunks", () => {
  it("streams tool-call arguments in pieces that reassemble to the full JSON", () => {
    const reply: FakeReply = {
      type: "tool-calls",
      calls: [{ name: "shell_exec", arguments: { thought: "t", command: "ls -la" } }],
    };
    const chunks = completionChunks(reply, "m", "id", usageFor("prompt", reply)) as Array<{
      choices: Array<{
        delta: { tool_calls?: Array<{ function: { name?: string; arguments?: string } }> };
        finish_reason: string | null;
      }>;
      usage?: unknown;
    }>;
    const deltas = chunks.flatMap((chunk) =>
      chunk.choices.flatMap((choice) => choice.delta.tool_calls ?? []),
    );
    expect(deltas[0]?.function.name).toBe("shell_exec");
    expect(deltas.length).toBeGreaterThan(2);
    expect(deltas.map((delta) => delta.function.arguments ?? "").join("")).toBe(
      '{"thought":"t","command":"ls -la"}',
    );
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe("tool_calls");
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 2 } });
  });

  it("pieces splits evenly and never loses characters", () => {
    expect(pieces("abcdefg", 3)).toEqual(["abc", "def", "g"]);
    expect(pieces("", 3)).toEqual([""]);
  });
});

describe("splitSteps with groups", () => {
  it("keeps a {…} group whole and unwraps it, so a child can itself be compound", () => {
    expect(splitSteps("run `echo a; echo z` and {run `echo b` and run `echo c`}")).toEqual([
      "run `echo a; echo z`",
      "run `echo b` and run `echo c`",
    ]);
  });
});

describe("default scenario: model tiers", () => {
  const ACT = ["shell_exec"];
  const MUST_SPLIT = ["propose_decomposition", "cannot_decompose"];
  const asModel = (model: string, base: ChatRequest): ChatRequest => ({ ...base, model });

  it("a weak model fails at a (hard) intention with a read-only command; another model runs it", () => {
    const hard = request(ACT, "run `ls README.md` (hard)");
    expect(firstCall(replyFor(scenario("default"), asModel("weak-a", hard)))?.arguments).toMatchObject({
      command: "ls /no-such-path-for-weak-models",
    });
    expect(firstCall(replyFor(scenario("default"), asModel("strong", hard)))?.arguments).toMatchObject({
      command: "ls README.md",
    });
    expect(
      firstCall(replyFor(scenario("default"), asModel("weak-a", request(ACT, "run `ls README.md`"))))
        ?.arguments,
    ).toMatchObject({ command: "ls README.md" });
  });

  it("asked to split a (hard) intention, a weak model proposes two easy children", () => {
    const call = firstCall(
      replyFor(scenario("default"), asModel("weak-b", request(MUST_SPLIT, "run `ls README.md` (hard)"))),
    );
    expect(call?.name).toBe("propose_decomposition");
    expect(call?.arguments).toMatchObject({
      children: [{ what: "run `ls README.md`" }, { what: "run `pwd`" }],
    });
  });
});
