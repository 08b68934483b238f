import { randomUUID } from "node:crypto";
import type { CriterionResult } from "@/server/contract/criteria";
import type { ApprovalView, IntentionView } from "@/server/events/fold";
import type { EventInput, GateRecord } from "@/server/events/schema";
import type { CycleLedger } from "@/server/governance/ledger/cycle-ledger";
import { errorMessage } from "@/server/orchestrator/errors";
import { approvalBinding } from "@/server/policy/approval/binding";
import type { CheckpointPolicy } from "@/server/policy/checkpoints";
import type { ToolDispatch, ToolResult } from "@/server/tools/dispatch";
import { gapOf, gapReflection, judgeWithContract } from "./contract-check";
import { judgeCommand, reflectOnFailure } from "./judge";
import { statusChanged } from "./run-events";
import type { ActionOutcome, SessionWorkspace } from "./session-workspace";
import { stoppedBy } from "./stop";

export interface PlannedCycle {
  intention: IntentionView;
  thought: string;
  command: string;
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
}

/** The intention being worked is the active intent; a command's effects have no path, so its scope is all. */
export function intentionIntent(intention: Pick<IntentionView, "id">) {
  return { id: intention.id, ownedScope: ["**"] };
}

/** The dispatch's result as the judge reads an action: an exit code, or why it did not run. */
function outcomeOf(result: ToolResult): ActionOutcome {
  if (result.exitCode !== null || result.timedOut)
    return { exitCode: result.exitCode, output: result.output, timedOut: result.timedOut, error: null };
  return {
    exitCode: null,
    output: "",
    timedOut: false,
    error: result.error?.message ?? "the action did not run",
  };
}

/**
 * Carries out action cycles once the command gate (or a person) has decided: run, judge by exit code
 * and contract, reflect on a miss; or record a cycle that did not run, with who stopped it and why.
 */
export class CycleRunner {
  constructor(private readonly host: CycleHost) {}

  /** A person answered a command approval: run exactly what they approved, or record the skip. */
  async answered(intention: IntentionView, approval: ApprovalView, approved: boolean): Promise<void> {
    const original = approval.command ?? "";
    const cycle = {
      intention,
      thought: approval.thought,
      command: approval.editedCommand ?? original,
      approvalId: approval.id,
      approver: approval.decidedBy,
    };
    const who = approval.decidedBy ?? "a user";
    if (!approved) {
      const why = approval.reason ? `: ${approval.reason}` : "";
      return this.blocked(
        cycle,
        { decision: "ask", reason: approval.gateReason },
        who,
        `skipped: ${who} rejected the command${why}`,
      );
    }
    // What runs is exactly what was approved: the request is bound to a hash of its command.
    if (approval.binding !== approvalBinding("shell.exec", { command: original })) {
      return this.blocked(
        cycle,
        { decision: "deny", reason: "binding mismatch" },
        "policy",
        "the approved command does not match its binding",
      );
    }
    if (approval.editedCommand !== null) {
      // An edited command goes back through the gate: a person's edit cannot reach a denied program.
      const regate = await this.host.tools.check(
        { tool: "shell.exec", input: { command: cycle.command } },
        { activeIntent: intentionIntent(intention) },
      );
      if (regate.status === "denied" || regate.status === "invalid") {
        const reason = regate.gate?.reason ?? regate.error?.message ?? "invalid command";
        return this.blocked(
          cycle,
          { decision: "deny", reason },
          "policy",
          `denied by the approval gate: ${reason}`,
        );
      }
    }
    const edited = approval.editedCommand !== null ? " (edited)" : "";
    // The person approved the request as bound when it was made, or exactly the text of their edit.
    const approvedBinding =
      approval.editedCommand !== null
        ? approvalBinding("shell.exec", { command: approval.editedCommand })
        : approval.binding;
    return this.run(
      { ...cycle, approvedBinding },
      { decision: "approve", reason: `approved by ${who}${edited}` },
      [original, cycle.command],
    );
  }

  /** One thought → action → result → judgment (→ reflection) cycle, for a command the gate let through. */
  async run(
    cycle: PlannedCycle,
    gate: GateRecord,
    criterionCommands: string[],
    before: EventInput[] = [],
  ): Promise<void> {
    const ids = { runId: this.host.runId, intentionId: cycle.intention.id, cycleId: randomUUID() };
    await this.host.append([...before, this.started(ids, cycle, gate)]);
    const started = Date.now();
    // The dispatch gates the call again (a person's approval counts only for its exact binding), runs
    // it and collects what it wrote for the ledger right after it, before any contract check runs.
    const result = await this.host.tools.run(
      { tool: "shell.exec", input: { command: cycle.command } },
      {
        activeIntent: intentionIntent(cycle.intention),
        intentionId: cycle.intention.id,
        approval: cycle.approvedBinding
          ? { binding: cycle.approvedBinding, approver: cycle.approver ?? null }
          : null,
        traceIds: ids,
        signal: this.host.workspace.signal(),
      },
    );
    const outcome = outcomeOf(result);
    // A person's Stop killed the command while it ran: who stopped it.
    const signal = this.host.workspace.signal();
    const cutBy = result.aborted && signal ? stoppedBy(signal) : undefined;
    let judged = judgeCommand(outcome);
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
    if (!stopper && judged.judgment === "SUCCESS" && cycle.intention.contract.length > 0) {
      const results = await this.host.workspace.checkContract(cycle.intention, criterionCommands);
      events.push({ type: "criteria-checked", ...ids, results });
      judged = judgeWithContract(results);
      gap = gapOf(results);
    }
    const trace = written && this.host.ledger?.judged(written, ids, judged.judgment, cycle.approver ?? null);
    const changed = this.host.ledger?.workspaceChanged(ids);
    const ledger = [trace, changed].filter((event) => !!event) as EventInput[];
    const policy = await this.host.checkpoints();
    // judge_action (and review_reflection) asked of a person: the transition proposes this verdict.
    if (policy.judgeAction === "ask" && !stopper) return this.host.append([...events, ...ledger]);
    events.push({
      type: "cycle-judged",
      ...ids,
      judgment: judged.judgment,
      judgedBy: stopper ?? "auto",
      reason: judged.reason,
    });
    events.push(...ledger);
    if (judged.judgment !== "SUCCESS" && !stopper && policy.reviewReflection === "auto") {
      const reflection =
        gap.length > 0 ? gapReflection(gap) : reflectOnFailure(outcome, outcome.error ?? outcome.output);
      events.push({ type: "cycle-reflected", ...ids, reflection });
    }
    await this.host.append(events);
  }

  /** A cycle whose command did not run: denied by policy or rejected by a person. Judged FAILURE. */
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
      action: { type: "COMMAND", content: cycle.command, target: null },
      approvalId: cycle.approvalId,
      gate: { decision: gate.decision, reason: gate.reason },
    };
  }

  async integrate(intention: IntentionView): Promise<void> {
    let results: CriterionResult[];
    try {
      results = await this.host.workspace.checkContract(intention, []);
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
    return this.host.append([check]);
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
