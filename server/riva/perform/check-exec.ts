import { CheckNotRun, type Exec } from "@/server/contract/verify";
import type { EventInput } from "@/server/domain/events/schema";
import type { ExecResult } from "@/server/domain/sandbox-port";
import type { DispatchContext, ToolDispatch } from "@/server/tools/dispatch";

/** Where a check runs from: the cycle it checks (or none), and why (after an action, baseline, integration). */
export interface CheckSite {
  runId: string;
  intentionId: string;
  cycleId: string | null;
  phase: "after-action" | "baseline" | "integration" | "guard";
}

/** A check the gate would run only with a person's click: the command card to ask with. */
export interface CheckAsk {
  command: string;
  binding: string;
  reason: string;
}

/** What running checks through the door leaves behind: a `check-ran` event per call, and the asks. */
export interface CheckRecord {
  events: EventInput[];
  asks: CheckAsk[];
}

/**
 * A contract check's command as a tool call of its own through the one door: `shell.exec` with the
 * gate, the deny-list and the intent gate like any action. A check the gate refuses, or one that waits
 * for a person, does not run and is "could not run" (never a pass); `approvalFor` gives the binding a
 * person approved (the decomposition card that listed the check, see decide/check-approvals.ts), which counts
 * only for that exact command. Each pass through the door is recorded as a `check-ran` event.
 */
export function checkExec(
  tools: Pick<ToolDispatch, "run">,
  context: DispatchContext,
  site: CheckSite,
  record: CheckRecord,
  approvalFor: (command: string) => DispatchContext["approval"] = () => null,
): Exec {
  return async (command: string): Promise<ExecResult> => {
    const result = await tools.run(
      { tool: "shell.exec", input: { command } },
      { ...context, approval: approvalFor(command) ?? null },
    );
    record.events.push({
      type: "check-ran",
      ...site,
      command: command.slice(0, 2_000),
      binding: result.binding,
      status: result.status,
      exitCode: result.exitCode,
      gate: (result.gate?.reason ?? result.error?.message ?? "").slice(0, 1_000),
      durationMs: result.durationMs,
    });
    if (result.status === "denied")
      throw new CheckNotRun(`the gate refused the check \`${command}\`: ${result.gate?.reason ?? "denied"}`);
    if (result.status === "ask") {
      if (result.binding)
        record.asks.push({
          command,
          binding: result.binding,
          reason: result.gate?.reason ?? "the policy asks",
        });
      throw new CheckNotRun(
        `the check \`${command}\` needs a person's approval: ${result.gate?.reason ?? "the policy asks"}`,
      );
    }
    if (result.status === "invalid")
      throw new CheckNotRun(
        `the check \`${command}\` is not a valid command: ${result.error?.message ?? ""}`,
      );
    if (result.aborted) throw new CheckNotRun(`the check \`${command}\` was stopped while it ran`);
    if (result.exitCode === null && !result.timedOut)
      throw new CheckNotRun(
        `the sandbox could not run the check \`${command}\`: ${result.error?.message ?? "no reason given"}`,
      );
    return {
      exitCode: result.exitCode ?? 124,
      stdout: result.output,
      stderr: "",
      timedOut: result.timedOut,
      truncated: false,
      durationMs: result.durationMs,
    };
  };
}
