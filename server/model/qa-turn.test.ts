import type { ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { READ_ONLY_TOOLS } from "@/server/domain/tools/catalogue";
import { qaToolSet, runQaTurn, SUBMIT_QA_REPORT } from "./qa-turn";
import type { ToolCallOutcome } from "./request-tool-call";
import type { ReadPort } from "./types";

const REPORT = { verdict: "concerns", summary: "one thing", findings: [{ severity: "low", message: "x" }] };
const task: ModelMessage = { role: "user", content: "review this" };

function scripted(replies: ToolCallOutcome[]) {
  const seen: ModelMessage[][] = [];
  return {
    seen,
    request: async (messages: ModelMessage[]) => {
      seen.push([...messages]);
      const reply = replies.shift();
      if (!reply) throw new Error("no more replies");
      return reply;
    },
  };
}

function readPort(): ReadPort & { ran: string[] } {
  const ran: string[] = [];
  const run = async (call: { tool: string }) => {
    ran.push(call.tool);
    return `result of ${call.tool}`;
  };
  return { maxReads: 2, ran, run };
}

const deps = (model: ReturnType<typeof scripted>, reads: ReadPort) => ({
  offered: READ_ONLY_TOOLS,
  reads,
  request: model.request,
  correction: (problem: string) => `fix: ${problem}`,
});

describe("the QA review turn", () => {
  it("offers the read-only tools and the report tool, nothing that writes", () => {
    expect(Object.keys(qaToolSet(READ_ONLY_TOOLS)).sort()).toEqual(
      [...READ_ONLY_TOOLS.map((name) => name.replace(".", "_")), SUBMIT_QA_REPORT].sort(),
    );
  });

  it("runs reads through the port, refuses a write without running it, then takes the report", async () => {
    const model = scripted([
      {
        calls: [
          { toolName: "git_diff", input: {}, toolCallId: "1" },
          { toolName: "fs_write", input: { path: "x", content: "y" }, toolCallId: "2" },
        ],
        text: "",
      },
      { calls: [{ toolName: SUBMIT_QA_REPORT, input: REPORT, toolCallId: "3" }], text: "" },
    ]);
    const reads = readPort();
    const result = await runQaTurn(task, deps(model, reads));
    expect(result).toMatchObject({ ok: true, report: { verdict: "concerns" }, reads: ["git.diff {}"] });
    expect(reads.ran).toEqual(["git.diff"]);
    const second = JSON.stringify(model.seen[1]);
    expect(second).toContain("result of git.diff");
    expect(second).toContain("fs_write is not available in a review");
  });

  it("re-asks once for a report that does not validate, then gives up", async () => {
    const bad = {
      calls: [{ toolName: SUBMIT_QA_REPORT, input: { verdict: "great" }, toolCallId: "1" }],
      text: "",
    };
    const fixed = scripted([bad, { calls: [{ toolName: SUBMIT_QA_REPORT, input: REPORT }], text: "" }]);
    expect(await runQaTurn(task, deps(fixed, readPort()))).toMatchObject({ ok: true });
    expect(JSON.stringify(fixed.seen[1])).toContain("fix: the report does not validate");
    const stubborn = scripted([bad, bad]);
    expect(await runQaTurn(task, deps(stubborn, readPort()))).toMatchObject({ ok: false });
  });
});
