import { describe, expect, it } from "vitest";
import { verifyCriterion } from "@/server/contract/verify";
import type { ToolCall, ToolResult } from "@/server/tools/dispatch";
import { type CheckRecord, checkExec } from "./check-exec";

function toolResult(fields: Partial<ToolResult>): ToolResult {
  return {
    tool: "shell.exec",
    status: "ok",
    output: "",
    error: null,
    exitCode: 0,
    timedOut: false,
    aborted: false,
    durationMs: 3,
    gate: { decision: "approve", reason: "read-only" },
    binding: "sha256:x",
    input: null,
    trace: [],
    ...fields,
  };
}

const site = { runId: "r1", intentionId: "i1", cycleId: "cy1", phase: "after-action" as const };

/** The dispatch is the real one in the integration tests; here only its result shapes matter. */
function door(result: Partial<ToolResult>) {
  const calls: { call: ToolCall; approval: unknown }[] = [];
  return {
    calls,
    run: async (call: ToolCall, context: { approval?: unknown }) => {
      calls.push({ call, approval: context.approval ?? null });
      return toolResult(result);
    },
  };
}

describe("checkExec: every check is a tool call through the dispatch", () => {
  it("sends the check as shell.exec with the person's bound approval, and records check-ran", async () => {
    const tools = door({ exitCode: 0 });
    const record: CheckRecord = { events: [], asks: [] };
    const approval = { binding: "sha256:b", approver: "Ada" };
    const exec = checkExec(tools, { activeIntent: null }, site, record, () => approval);
    const result = await verifyCriterion(exec, { kind: "TESTS_PASS", command: "npm test" });
    expect(result.passed).toBe(true);
    expect(tools.calls).toEqual([{ call: { tool: "shell.exec", input: { command: "npm test" } }, approval }]);
    expect(record.events).toMatchObject([
      { type: "check-ran", command: "npm test", status: "ok", phase: "after-action" },
    ]);
  });

  it("a check the gate asks about does not run: could not run, and the ask is kept for a card", async () => {
    const tools = door({
      status: "ask",
      exitCode: null,
      gate: { decision: "ask", reason: "ask before every command" },
    });
    const record: CheckRecord = { events: [], asks: [] };
    const result = await verifyCriterion(checkExec(tools, { activeIntent: null }, site, record), {
      kind: "TESTS_PASS",
      command: "npm test",
    });
    expect(result).toMatchObject({
      passed: false,
      couldNotRun: expect.stringContaining("needs a person's approval"),
    });
    expect(record.asks).toEqual([
      { command: "npm test", binding: "sha256:x", reason: "ask before every command" },
    ]);
  });

  it("a denied check and a sandbox error are could-not-run, never a pass", async () => {
    const denied = door({
      status: "denied",
      exitCode: null,
      gate: { decision: "deny", reason: "denied program" },
    });
    const record: CheckRecord = { events: [], asks: [] };
    const refused = await verifyCriterion(checkExec(denied, { activeIntent: null }, site, record), {
      kind: "FILE_EXISTS",
      path: "a",
    });
    expect(refused).toMatchObject({ passed: false, couldNotRun: expect.stringContaining("denied program") });
    const broken = door({
      status: "failed",
      exitCode: null,
      error: { code: "sandbox_error", message: "gone" },
    });
    const gone = await verifyCriterion(checkExec(broken, { activeIntent: null }, site, record), {
      kind: "FILE_EXISTS",
      path: "a",
    });
    expect(gone).toMatchObject({ passed: false, couldNotRun: expect.stringContaining("gone") });
  });
});
