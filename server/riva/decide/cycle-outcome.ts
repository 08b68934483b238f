import { testsOfOutput } from "@/server/contract/test-runs/parse-run";
import type { TestResults } from "@/server/domain/contract/test-results";
import type { ToolCallBody } from "@/server/domain/events/schema";
import { capEndCounted } from "@/server/domain/text/cap";
import type { ToolResult } from "@/server/tools/dispatch";
import { judgeCommand } from "./judge";
import { judgeToolResult } from "./tool-action";

/**
 * What a cycle's action came to, pure: the dispatch's result as the judge reads it, the cycle's own
 * judgment before the contract, and what a cycle cut by a Stop records. The cycle runner
 * (perform/cycle-runner.ts) runs the action and appends these.
 */

/** What an action came to, as the cycle's result records it. */
export interface ActionOutcome {
  exitCode: number | null;
  output: string;
  timedOut: boolean;
  error: string | null;
  /** Set when a person's Stop killed the command while it ran: who stopped it. */
  stoppedBy?: string;
  /** A test command's counts, read from its output's summary lines. */
  tests?: TestResults;
}

/** A cycle's recorded output is capped (a read of a large file must not overflow the event). */
const MAX_RESULT_CHARS = 100_000;

/**
 * The dispatch's result as the judge reads an action: a command's exit code, or why it did not run;
 * any other tool's output, or its error (a scope violation, a search text not found, …).
 */
export function outcomeOf(call: ToolCallBody, result: ToolResult): ActionOutcome {
  const output = capEndCounted(result.output, MAX_RESULT_CHARS);
  if (call.tool !== "shell.exec") {
    const error =
      result.status === "ok"
        ? null
        : `${result.tool} ${result.status}: ${result.error?.message ?? "no reason given"}`;
    return { exitCode: result.exitCode, output, timedOut: result.timedOut, error };
  }
  if (result.exitCode !== null || result.timedOut) {
    const tests = typeof call.input.command === "string" ? testsOfOutput(call.input.command, output) : null;
    return {
      exitCode: result.exitCode,
      output,
      timedOut: result.timedOut,
      error: null,
      ...(tests && { tests }),
    };
  }
  return {
    exitCode: null,
    output: "",
    timedOut: false,
    error: result.error?.message ?? "the action did not run",
  };
}

/** The cycle's own judgment before the contract: a command by its exit code, a tool by its status. */
export function judgeOutcome(call: ToolCallBody, result: ToolResult, outcome: ActionOutcome) {
  return call.tool === "shell.exec" ? judgeCommand(outcome) : judgeToolResult(call, result);
}

/** What a cut command's cycle records: the output it printed until then and who cut it. */
export function cutResult(outcome: Omit<ActionOutcome, "stoppedBy">, by: string) {
  return { ...outcome, exitCode: null, timedOut: false, error: `stopped by ${by} while running` };
}

/** A stopped cycle proves nothing either way: UNCLEAR, with who stopped it and when. */
export function stoppedJudgment(by: string, whileRunning: boolean): { judgment: "UNCLEAR"; reason: string } {
  const when = whileRunning ? "while running" : "before its result was checked";
  return { judgment: "UNCLEAR", reason: `stopped by ${by} ${when}` };
}

export function isCommandInput(input: unknown): input is { command: string } {
  return (
    typeof input === "object" &&
    input !== null &&
    typeof (input as { command?: unknown }).command === "string"
  );
}
