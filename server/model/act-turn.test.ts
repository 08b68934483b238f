import { describe, expect, it } from "vitest";
import { actToolNames, actToolSet, runActTurn } from "./act-turn";
import type { ToolCallOutcome } from "./request-tool-call";

/** A scripted model: each request gets the next outcome; the messages it saw are kept. */
function scripted(outcomes: ToolCallOutcome[]) {
  const seen: unknown[][] = [];
  return {
    seen,
    request: async (messages: unknown[]) => {
      seen.push(structuredClone(messages));
      const next = outcomes.shift();
      if (!next) throw new Error("no more scripted answers");
      return next;
    },
  };
}

const read = (path: string, id = "c1"): ToolCallOutcome => ({
  calls: [{ toolName: "fs_read", input: { thought: "look", path }, toolCallId: id }],
  text: "",
});
const write: ToolCallOutcome = {
  calls: [{ toolName: "fs_write", input: { thought: "write", path: "a.txt", content: "x\n" } }],
  text: "",
};

function deps(model: ReturnType<typeof scripted>, maxReads: number, log: string[] = []) {
  return {
    offered: actToolNames(),
    reads: {
      maxReads,
      run: async (call: { tool: string; input: unknown }) => {
        log.push(`${call.tool} ${JSON.stringify(call.input)}`);
        return "     1\thello";
      },
    },
    request: model.request as never,
    correction: (answer: ToolCallOutcome, problem: string) => ({
      note: {
        kind: answer.calls.length === 0 ? ("empty-response" as const) : ("invalid-tool-call" as const),
        prompt: "p",
        problem,
      },
      message: `fix: ${problem}`,
    }),
    readsExhausted: "no more reads",
  };
}

const task = { role: "user" as const, content: "write a.txt" };

describe("the act turn", () => {
  it("offers every registry tool, select_active_intent included (#15.6), each with a thought", () => {
    expect(actToolNames()).toContain("fs.write");
    expect(actToolNames()).toContain("shell.exec");
    expect(actToolNames()).toContain("select_active_intent");
    const tools = actToolSet();
    expect(Object.keys(tools)).toContain("fs_edit");
    const schema = JSON.stringify((tools.fs_edit as { inputSchema: unknown }).inputSchema);
    expect(schema).toContain('"thought"');
    expect(schema).toContain('"search"');
  });

  it("runs reads through the port, sends each result back in the same turn, and returns the first non-read", async () => {
    const model = scripted([read("a.txt"), read("b.txt", "c2"), write]);
    const log: string[] = [];
    const result = await runActTurn(task, deps(model, 8, log));
    expect(result).toEqual({
      ok: true,
      action: { thought: "write", tool: "fs.write", input: { path: "a.txt", content: "x\n" } },
      text: "",
      corrections: [],
    });
    expect(log).toEqual(['fs.read {"path":"a.txt"}', 'fs.read {"path":"b.txt"}']);
    expect(model.seen).toHaveLength(3);
    expect(JSON.stringify(model.seen[2])).toContain('"toolCallId":"c2"');
    expect(JSON.stringify(model.seen[2])).toContain("hello");
  });

  it("caps the reads: once they are used up the model is told, and a further read is the action", async () => {
    const model = scripted([read("a.txt"), read("b.txt"), read("c.txt")]);
    const log: string[] = [];
    const result = await runActTurn(task, deps(model, 2, log));
    expect(log).toHaveLength(2);
    expect(JSON.stringify(model.seen[2])).toContain("no more reads");
    expect(result).toMatchObject({ ok: true, action: { tool: "fs.read", input: { path: "c.txt" } } });
  });

  it("re-asks once after an invalid answer, then gives up with the problem", async () => {
    const invalid: ToolCallOutcome = { calls: [{ toolName: "fs_edit", input: { thought: "t" } }], text: "" };
    const recovered = await runActTurn(task, deps(scripted([invalid, write]), 8));
    expect(recovered.ok).toBe(true);
    const model = scripted([invalid, { calls: [], text: "I would rather talk" }]);
    const failed = await runActTurn(task, deps(model, 8));
    expect(!failed.ok && failed.problem).toMatch(/answered with text/);
    expect(JSON.stringify(model.seen[1])).toContain("fix: the arguments of fs_edit do not match its schema");
    expect(failed.corrections.map((note) => note.kind)).toEqual(["invalid-tool-call"]);
  });

  it("sends the opening correction after the task and keeps the model's text as the turn's reasoning", async () => {
    const reflecting: ToolCallOutcome = { ...write, text: "<ide_reasoning>- next: write</ide_reasoning>" };
    const model = scripted([reflecting]);
    const opening = {
      note: { kind: "failed-tool" as const, prompt: "correct-failed-tool", problem: "shell.exec failed" },
      message: "the last attempt failed",
    };
    const result = await runActTurn(task, { ...deps(model, 8), opening });
    expect(model.seen[0]).toEqual([task, { role: "user", content: "the last attempt failed" }]);
    expect(result).toMatchObject({ ok: true, text: reflecting.text, corrections: [opening.note] });
  });
});
