import { randomUUID } from "node:crypto";
import type { CriterionResult } from "@/server/domain/contract/criteria";
import type { EventInput, GateRecord } from "@/server/domain/events/schema";
import type { ApprovalView, IntentionView } from "@/server/domain/session/view";
import { verifyBinding } from "@/server/policy/approval/binding";
import { gapOf, gapReflection, judgeWithContract } from "../decide/contract-judgment";
import { cutResult, isCommandInput, judgeOutcome, outcomeOf, stoppedJudgment } from "../decide/cycle-outcome";
import { reflectOnFailure } from "../decide/judge";
import { actionOf } from "../decide/tool-action";
import { approvedCall, requestedCall } from "../decide/tool-approval";
import { stoppedBy } from "../stop";
import type { CheckRecord } from "./check-exec";
import { checksExec, runBaseline, runIntegration } from "./check-phases";
import { checkContract } from "./contract-check";
import { activeIntentOf, type CycleHost, type PlannedCycle } from "./cycle-host";
import { runRegressionGuard } from "./regression-guard";

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
      const regate = await this.host.tools.check(call, { activeIntent: activeIntentOf(intention) });
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
      activeIntent: activeIntentOf(cycle.intention),
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
      const exec = checksExec(this.host, cycle.intention, { ...ids, phase: "after-action" }, record);
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

  /** Red before green: the intention's checks before its first action (see check-phases.ts). */
  baseline(intention: IntentionView): Promise<void> {
    return runBaseline(this.host, intention);
  }

  /** The project's tests before any work of the run, and before its root settles (regression-guard.ts). */
  guard(root: IntentionView, phase: "before" | "after", command: string): Promise<void> {
    return runRegressionGuard(this.host, root, phase, command);
  }

  /** The intention's contract checked after its children settled (see check-phases.ts). */
  integrate(intention: IntentionView): Promise<void> {
    return runIntegration(this.host, intention);
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
}
