import { randomUUID } from "node:crypto";
import { testsOfOutput } from "@/server/contract/test-runs/parse-run";
import { verifyCriterion } from "@/server/contract/verify";
import type { CheckTestHints } from "@/server/domain/contract/check-run";
import type { Criterion, CriterionResult } from "@/server/domain/contract/criteria";
import { needsFallbackAfterBaseline } from "@/server/domain/contract/detected-tests";
import { errorMessage } from "@/server/domain/errors";
import type { Action, EventInput, GateRecord, ToolCallBody } from "@/server/domain/events/schema";
import type { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import type { ApprovalView, IntentionView } from "@/server/domain/session/view";
import { capEndCounted } from "@/server/domain/text/cap";
import type { CycleLedger } from "@/server/governance/ledger/cycle-ledger";
import { verifyBinding } from "@/server/policy/approval/binding";
import type { ToolDispatch, ToolResult } from "@/server/tools/dispatch";
import { type CheckRecord, type CheckSite, checkExec } from "./check-exec";
import { checkContract, gapOf, gapReflection, judgeWithContract } from "./contract-check";
import { baselinePlan } from "./evidence";
import { judgeCommand, reflectOnFailure } from "./judge";
import { statusChanged } from "./run-events";
import type { ActionOutcome, SessionWorkspace } from "./session-workspace";
import { stoppedBy } from "./stop";
import { actionOf, judgeToolResult } from "./tool-action";
import { approvedCall, requestedCall } from "./tool-approval";

export interface PlannedCycle {
  intention: IntentionView;
  thought: string;
  /** The tool call the cycle runs (the dispatch parses and gates it again). */
  call: ToolCallBody;
  /** How the log shows it (seed 000's Action type, content, target). */
  action: Action;
  approvalId: string | null;
  /** Who approved the command, when a person did (recorded in the trace ledger). */
  approver?: string | null;
  /** The binding of the exact command the person approved; the dispatch runs nothing else. */
  approvedBinding?: string;
}

/** What the cycle runner needs from the engine that owns it. */
export interface CycleHost {
  readonly runId: string;
  readonly workspace: SessionWorkspace;
  /** The one door to the sandbox: every action runs through its gates. */
  readonly tools: ToolDispatch;
  append(bodies: EventInput[]): Promise<void>;
  /** The project's checkpoint policy: which judgment questions go to a person. */
  checkpoints(): Promise<CheckpointPolicy>;
  /** The trace ledger (its records come back from the dispatch); absent in tests that do not care. */
  readonly ledger?: CycleLedger;
  /**
   * Where a running command's output goes as it arrives (the page's live lines; ephemeral, see
   * server/events/command-output.ts); `finish` once its result is stored. Absent: nothing streams.
   */
  readonly liveOutput?: {
    /** The cycle's action starts now (absent: only output is streamed). */
    start?(ids: { runId: string; intentionId: string; cycleId: string }): void;
    append(ids: { runId: string; intentionId: string; cycleId: string }, chunk: string): void;
    finish(cycleId: string): void;
  };
  /**
   * A person's approval that covers running `command` as a check of `intention` (check-approvals.ts);
   * absent or null: the dispatch's policy alone decides, and a check it would ask about waits for a click.
   */
  checkApproval?(
    intention: IntentionView,
    command: string,
  ): { binding: string; approver: string | null } | null;
  /** Whether the limits leave room for one more cycle of this intention (a check's own card runs as one). */
  roomForCycle?(intention: IntentionView): boolean;
  /**
   * Whether a person already answered a card for this check outside a cycle (before any work, or at
   * integration): then it is not asked again, and without their approval it stays "could not run".
   */
  checkAnswered?(intention: IntentionView, phase: "baseline" | "integration", command: string): boolean;
  /** The project's detected tests for this intention (detected-tests.ts), or null: the fallback check. */
  detectedTests?(intention: IntentionView): Criterion | null;
  /** What discovery read that decides a test check's reporter form (child-checks.ts testHintsOf). */
  testHints?(intention: IntentionView): CheckTestHints;
}

/** The intention being worked is the active intent; a command's effects have no path, so its scope is all. */
export function intentionIntent(intention: Pick<IntentionView, "id">) {
  return { id: intention.id, ownedScope: ["**"] };
}

/** A cycle's recorded output is capped (a read of a large file must not overflow the event). */
const MAX_RESULT_CHARS = 100_000;

/**
 * The dispatch's result as the judge reads an action: a command's exit code, or why it did not run;
 * any other tool's output, or its error (a scope violation, a search text not found, …).
 */
function outcomeOf(call: ToolCallBody, result: ToolResult): ActionOutcome {
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
function judgeOutcome(call: ToolCallBody, result: ToolResult, outcome: ActionOutcome) {
  return call.tool === "shell.exec" ? judgeCommand(outcome) : judgeToolResult(call, result);
}

/**
 * Carries out action cycles once the command gate (or a person) has decided: run, judge by exit code
 * and contract, reflect on a miss; or record a cycle that did not run, with who stopped it and why.
 */
export class CycleRunner {
  constructor(private readonly host: CycleHost) {}

  /** A person answered an action's approval: run exactly what they approved, or record the skip. */
  async answered(intention: IntentionView, approval: ApprovalView, approved: boolean): Promise<void> {
    const original = requestedCall(approval);
    const { call, edited } = approvedCall(approval);
    // fs.write over a file that was there (the preview is its content) edits it; an edit stays EDIT.
    const fileExisted = original.tool.startsWith("fs.") ? approval.preview !== null : null;
    const cycle = {
      intention,
      thought: approval.thought,
      call,
      action: actionOf(call, original.tool === "fs.edit" ? true : fileExisted),
      approvalId: approval.id,
      approver: approval.decidedBy,
    };
    const who = approval.decidedBy ?? "a user";
    const noun = call.tool === "shell.exec" ? "the command" : `the ${original.tool} call`;
    if (!approved) {
      const why = approval.reason ? `: ${approval.reason}` : "";
      return this.blocked(
        cycle,
        { decision: "ask", reason: approval.gateReason },
        who,
        `skipped: ${who} rejected ${noun}${why}`,
      );
    }
    // What runs is exactly what was approved: the request is bound to a hash of its call.
    if (approval.binding === null || !verifyBinding(approval.binding, original.tool, original.input)) {
      return this.blocked(
        cycle,
        { decision: "deny", reason: "binding mismatch" },
        "policy",
        `the approved ${noun.replace("the ", "")} does not match its binding`,
      );
    }
    let approvedBinding = approval.binding;
    if (edited) {
      // An edited call goes back through every gate: a person's edit cannot reach a denied program
      // or a path outside the scope, and it is bound to the hash of exactly the edited call.
      const regate = await this.host.tools.check(call, { activeIntent: intentionIntent(intention) });
      if (regate.status === "denied" || regate.status === "invalid" || regate.binding === null) {
        const reason = regate.gate?.reason ?? regate.error?.message ?? "invalid call";
        return this.blocked(
          cycle,
          { decision: "deny", reason },
          "policy",
          `denied by the approval gate: ${reason}`,
        );
      }
      approvedBinding = regate.binding;
    }
    return this.run(
      { ...cycle, approvedBinding },
      { decision: "approve", reason: `approved by ${who}${edited ? " (edited)" : ""}` },
    );
  }

  /** One thought → action → result → judgment (→ reflection) cycle, for a command the gate let through. */
  async run(cycle: PlannedCycle, gate: GateRecord, before: EventInput[] = []): Promise<void> {
    const ids = { runId: this.host.runId, intentionId: cycle.intention.id, cycleId: randomUUID() };
    try {
      await this.ranCycle(ids, cycle, gate, before);
    } finally {
      // The stored result replaces the live lines only once it is in the log (or the cycle broke).
      this.host.liveOutput?.finish(ids.cycleId);
    }
  }

  private async ranCycle(
    ids: { runId: string; intentionId: string; cycleId: string },
    cycle: PlannedCycle,
    gate: GateRecord,
    before: EventInput[],
  ): Promise<void> {
    await this.host.append([...before, this.started(ids, cycle, gate)]);
    const started = Date.now();
    this.host.liveOutput?.start?.(ids);
    // The dispatch gates the call again (a person's approval counts only for its exact binding), runs
    // it and collects what it wrote for the ledger right after it, before any contract check runs.
    const result = await this.host.tools.run(cycle.call, {
      activeIntent: intentionIntent(cycle.intention),
      intentionId: cycle.intention.id,
      approval: cycle.approvedBinding
        ? { binding: cycle.approvedBinding, approver: cycle.approver ?? null }
        : null,
      traceIds: ids,
      signal: this.host.workspace.signal(),
      ...(this.host.liveOutput
        ? { onOutput: (chunk: string) => this.host.liveOutput?.append(ids, chunk) }
        : {}),
    });
    const outcome = outcomeOf(cycle.call, result);
    // A person's Stop killed the command while it ran: who stopped it.
    const signal = this.host.workspace.signal();
    const cutBy = result.aborted && signal ? stoppedBy(signal) : undefined;
    let judged = judgeOutcome(cycle.call, result, outcome);
    const events: EventInput[] = [
      cutBy
        ? { type: "cycle-result", ...ids, ...cutResult(outcome, cutBy), durationMs: Date.now() - started }
        : { type: "cycle-result", ...ids, ...outcome, durationMs: Date.now() - started },
    ];
    const written = result.trace;
    // A Stop during (or right after) the action: nothing more runs, and the cycle says why it is open.
    const stopper = cutBy ?? this.host.workspace.stoppedBy();
    if (stopper) judged = stoppedJudgment(stopper, cutBy !== undefined);
    let gap: CriterionResult[] = [];
    let ask: EventInput | null = null;
    const isRead = cycle.action.type === "QUERY";
    const checkable = judged.judgment === "SUCCESS" || (isRead && judged.judgment === "UNCLEAR");
    if (!stopper && checkable && cycle.intention.contract.length > 0) {
      // Only the command the dispatch actually executed (its parsed input, exit 0) may stand in for a
      // TESTS_PASS check, and only when byte-identical; an edited command never inherits the check.
      const ran =
        cycle.call.tool === "shell.exec" && result.status === "ok" && isCommandInput(result.input)
          ? result.input.command
          : null;
      const record: CheckRecord = { events: [], asks: [] };
      const exec = this.checks(cycle.intention, { ...ids, phase: "after-action" }, record);
      const results = await checkContract(exec, cycle.intention, ran, this.host.testHints?.(cycle.intention));
      events.push(...record.events, { type: "criteria-checked", ...ids, results });
      const basis = cycle.call.tool === "shell.exec" ? "exit code 0" : `${cycle.call.tool} succeeded`;
      const contract = judgeWithContract(results, basis);
      // A read changed nothing: only a contract that holds verifies the intention, never the read.
      judged = isRead && contract.judgment !== "SUCCESS" ? judged : contract;
      gap = gapOf(results);
      const waiting = record.asks[0];
      // Without room for the check's own cycle, the check stays "could not run" and the cycle fails.
      if (waiting && (this.host.roomForCycle?.(cycle.intention) ?? true)) {
        // The policy asks before this check runs: nothing is verified yet, and a command card asks a
        // person to run exactly the check (its approval then covers it, bound by its hash).
        judged = {
          judgment: "UNCLEAR",
          reason: `${basis}; the check \`${waiting.command}\` waits for a person's approval (${waiting.reason})`,
        };
        ask = {
          type: "approval-requested",
          runId: this.host.runId,
          approvalId: randomUUID(),
          intentionId: cycle.intention.id,
          kind: "command",
          thought: `Check the work: run \`${waiting.command}\` (a check of this intention's contract).`,
          command: waiting.command,
          binding: waiting.binding,
          reason: waiting.reason,
        };
      }
    }
    const trace = written && this.host.ledger?.judged(written, ids, judged.judgment, cycle.approver ?? null);
    const changed = this.host.ledger?.workspaceChanged(ids);
    const ledger = [trace, changed].filter((event) => !!event) as EventInput[];
    const policy = await this.host.checkpoints();
    // judge_action (and review_reflection) asked of a person: the transition proposes this verdict.
    // A cycle waiting for a check's approval is not judged by anyone yet: it is UNCLEAR by fact.
    if (policy.judgeAction === "ask" && !stopper && !ask) return this.host.append([...events, ...ledger]);
    events.push({
      type: "cycle-judged",
      ...ids,
      judgment: judged.judgment,
      judgedBy: stopper ?? "auto",
      reason: judged.reason,
    });
    events.push(...ledger);
    if (ask) return this.host.append([...events, ask]);
    if (judged.judgment !== "SUCCESS" && !stopper && policy.reviewReflection === "auto") {
      const reflection =
        gap.length > 0
          ? gapReflection(gap)
          : cycle.call.tool === "shell.exec"
            ? reflectOnFailure(outcome, outcome.error ?? outcome.output)
            : `Failed (${judged.reason}).${outcome.output ? ` Output:\n${outcome.output.slice(-600)}` : ""}`;
      events.push({ type: "cycle-reflected", ...ids, reflection });
    }
    await this.host.append(events);
  }

  /** A cycle whose action did not run: denied by policy or rejected by a person. Judged FAILURE. */
  async blocked(
    cycle: PlannedCycle,
    gate: GateRecord,
    judgedBy: string,
    why: string,
    before: EventInput[] = [],
  ) {
    const ids = { runId: this.host.runId, intentionId: cycle.intention.id, cycleId: randomUUID() };
    const outcome = { exitCode: null, output: "", timedOut: false, error: why };
    await this.host.append([
      ...before,
      this.started(ids, cycle, gate),
      { type: "cycle-result", ...ids, ...outcome, durationMs: 0 },
      { type: "cycle-judged", ...ids, judgment: "FAILURE", judgedBy, reason: why },
      {
        type: "cycle-reflected",
        ...ids,
        reflection: `Not run (${why}). Try another way to reach the acceptance.`,
      },
    ]);
  }

  private started(
    ids: { runId: string; intentionId: string; cycleId: string },
    cycle: PlannedCycle,
    gate: GateRecord,
  ): EventInput {
    return {
      type: "cycle-started",
      ...ids,
      index: cycle.intention.cycles.length,
      thought: cycle.thought,
      action: cycle.action,
      approvalId: cycle.approvalId,
      gate: { decision: gate.decision, reason: gate.reason },
    };
  }

  /** The exec every contract check of this intention runs through: the dispatch, as a call of its own. */
  private checks(intention: IntentionView, site: CheckSite, record: CheckRecord) {
    return checkExec(
      this.host.tools,
      {
        activeIntent: intentionIntent(intention),
        intentionId: intention.id,
        signal: this.host.workspace.signal(),
      },
      site,
      record,
      (command) => this.host.checkApproval?.(intention, command) ?? null,
    );
  }

  /**
   * Red before green: the checks that are safe to run twice run once before the intention's first
   * action (through the dispatch like every check); the rest are recorded as skipped. A check the
   * policy would ask about asks here too, with a command card (once: a card a person answered
   * without approving leaves it "could not run", no baseline). When every check was already green,
   * the project's detected tests are added to the contract as a fallback and baselined with them.
   */
  async baseline(intention: IntentionView): Promise<void> {
    const plan = baselinePlan(intention);
    const record: CheckRecord = { events: [], asks: [] };
    const site = {
      runId: this.host.runId,
      intentionId: intention.id,
      cycleId: null,
      phase: "baseline",
    } as const;
    const exec = this.checks(intention, site, record);
    const results: { index: number; result: CriterionResult }[] = [];
    for (const index of plan.run) {
      const criterion = intention.contract[index];
      if (criterion)
        results.push({
          index,
          result: await verifyCriterion(exec, criterion, this.host.testHints?.(intention)),
        });
    }
    const extended: EventInput[] = [];
    const already = intention.contractBy?.detectedTests ?? [];
    const fallback = needsFallbackAfterBaseline(intention.contract, results, plan.skipped, already)
      ? (this.host.detectedTests?.(intention) ?? null)
      : null;
    if (fallback && !intention.contract.some((criterion) => sameCheck(criterion, fallback))) {
      const index = intention.contract.length;
      results.push({
        index,
        result: await verifyCriterion(exec, fallback, this.host.testHints?.(intention)),
      });
      extended.push({
        type: "contract-built",
        runId: this.host.runId,
        intentionId: intention.id,
        criteria: [...intention.contract, fallback],
        source: intention.contractBy?.source ?? "acceptance",
        dropped: intention.contractBy?.dropped ?? [],
        generatedTest: intention.contractBy?.generatedTest
          ? {
              path: intention.contractBy.generatedTest.path,
              content: intention.contractBy.generatedTest.content,
            }
          : null,
        detectedTests: [index],
      });
    }
    const ask = this.askFor(intention, "baseline", record);
    if (ask) return this.host.append([...record.events, ask]);
    await this.host.append([
      ...record.events,
      ...extended,
      {
        type: "checks-baselined",
        runId: this.host.runId,
        intentionId: intention.id,
        results,
        skipped: plan.skipped,
      },
    ]);
  }

  /**
   * A check outside any cycle that the policy would not run unasked: a command card for exactly it
   * (approving lets that command run there, bound by its hash), unless a person already answered one.
   */
  private askFor(
    intention: IntentionView,
    phase: "baseline" | "integration",
    record: CheckRecord,
  ): EventInput | null {
    const waiting = record.asks.find(
      (asked) => !(this.host.checkAnswered?.(intention, phase, asked.command) ?? false),
    );
    if (!waiting || !this.host.checkAnswered) return null;
    const when = phase === "baseline" ? "before any work (the baseline)" : "at integration";
    return {
      type: "approval-requested",
      runId: this.host.runId,
      approvalId: randomUUID(),
      intentionId: intention.id,
      kind: "command",
      thought: `Check ${when}: run \`${waiting.command}\` (a check of this intention's contract; it is not an action).`,
      command: waiting.command,
      binding: waiting.binding,
      reason: waiting.reason,
      checkPhase: phase,
    };
  }

  async integrate(intention: IntentionView): Promise<void> {
    let results: CriterionResult[];
    const record: CheckRecord = { events: [], asks: [] };
    const site = {
      runId: this.host.runId,
      intentionId: intention.id,
      cycleId: null,
      phase: "integration",
    } as const;
    try {
      results = await checkContract(
        this.checks(intention, site, record),
        intention,
        null,
        this.host.testHints?.(intention),
      );
      // A check the policy would ask about asks here as well; its answer lets the check run again.
      const ask = this.askFor(intention, "integration", record);
      if (ask) return this.host.append([...record.events, ask]);
    } catch (error) {
      return this.host.append([
        statusChanged(
          this.host.runId,
          intention,
          "FAILED",
          `integration check could not run: ${errorMessage(error)}`,
        ),
      ]);
    }
    const check: EventInput = {
      type: "criteria-checked",
      runId: this.host.runId,
      intentionId: intention.id,
      cycleId: null,
      results,
    };
    // The verdict (auto, or proposed to a person) is the transition's: see integrationStep.
    return this.host.append([...record.events, check]);
  }
}

/** What a cut command's cycle records: the output it printed until then and who cut it. */
function cutResult(outcome: Omit<ActionOutcome, "stoppedBy">, by: string) {
  return { ...outcome, exitCode: null, timedOut: false, error: `stopped by ${by} while running` };
}

/** A stopped cycle proves nothing either way: UNCLEAR, with who stopped it and when. */
function stoppedJudgment(by: string, whileRunning: boolean): { judgment: "UNCLEAR"; reason: string } {
  const when = whileRunning ? "while running" : "before its result was checked";
  return { judgment: "UNCLEAR", reason: `stopped by ${by} ${when}` };
}

function isCommandInput(input: unknown): input is { command: string } {
  return (
    typeof input === "object" &&
    input !== null &&
    typeof (input as { command?: unknown }).command === "string"
  );
}

function sameCheck(a: Criterion, b: Criterion): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
