import { randomUUID } from "node:crypto";
import type { CriterionResult } from "@/server/contract/criteria";
import { parseAcceptance } from "@/server/contract/parse-acceptance";
import {
  type ApprovalView,
  applyEvent,
  emptySessionView,
  type IntentionView,
  type SessionView,
} from "@/server/events/fold";
import type { EventInput, GateRecord } from "@/server/events/schema";
import type { ModelCallRecord, Plan } from "@/server/model/types";
import { errorMessage } from "@/server/orchestrator/errors";
import { approvalBinding } from "@/server/policy/approval/binding";
import { type CheckpointPolicy, DEFAULT_CHECKPOINTS } from "@/server/policy/checkpoints";
import { childIntentions } from "./children";
import { gateCommand } from "./command-gate";
import { describeGap, gapOf, gapReflection, judgeWithContract } from "./contract-check";
import { discoverIntent } from "./discovery/discover";
import { summarizeIntent } from "./discovery/discovered-intent";
import type { Verdict } from "./heuristics";
import { judgeCommand, reflectOnFailure } from "./judge";
import { callWithRetries } from "./model-calls";
import { nextStep, type Step } from "./next-step";
import type { RivaDeps } from "./ports";
import { SessionWorkspace } from "./session-workspace";

const MIN_CHILDREN = 2;
const MAX_CHILDREN = 5;
type Settled = "ACTIVE" | "VERIFIED" | "FAILED";
interface PlannedCycle {
  intention: IntentionView;
  thought: string;
  command: string;
  approvalId: string | null;
}

/**
 * Drives one run to its end: fold the log, ask `nextStep` what to do, do it, append what happened,
 * repeat. All state lives in the log, so this object can be thrown away at any moment and a new one
 * continues the run (that is how resume after a restart works).
 */
export class RivaEngine {
  private view: SessionView = emptySessionView();
  private readonly workspace: SessionWorkspace;
  private policy: CheckpointPolicy | null = null;

  constructor(
    private readonly deps: RivaDeps,
    private readonly sessionId: string,
    private readonly runId: string,
    private readonly waitForApproval: (approvalId: string, signal: AbortSignal) => Promise<void>,
  ) {
    this.workspace = new SessionWorkspace(deps, sessionId, (ready) =>
      this.append([{ type: "sandbox-ready", runId, image: deps.sandboxImage, ...ready }]),
    );
  }

  async drive(signal: AbortSignal): Promise<void> {
    try {
      for (;;) {
        await this.catchUp();
        if (signal.aborted) {
          await this.endRun("STOPPED", "stopped by the user");
          return;
        }
        const step = nextStep(this.view, this.runId, {
          limits: this.deps.limits,
          now: this.deps.clock(),
          budget: this.deps.budget ?? null,
        });
        if (step.kind === "done") return;
        await this.perform(step, signal);
      }
    } catch (error) {
      const ref = randomUUID().slice(0, 8);
      this.deps.logger.error({ err: error, runId: this.runId, ref }, "run failed with an internal error");
      await this.endRun("FAILED", `internal error (reference ${ref}); the server log has the details`).catch(
        (endError: unknown) =>
          this.deps.logger.error({ err: endError, runId: this.runId }, "could not record run end"),
      );
    }
  }

  private async perform(step: Exclude<Step, { kind: "done" }>, signal: AbortSignal): Promise<void> {
    switch (step.kind) {
      case "end":
        return this.endRun(step.status, step.reason);
      case "await-approval":
        return this.waitForApproval(step.approvalId, signal);
      case "discover":
        return this.discover(step.root);
      case "ask-budget":
        return this.append([
          {
            type: "approval-requested",
            runId: this.runId,
            approvalId: randomUUID(),
            intentionId: step.root.id,
            kind: "budget",
            thought: `The run has spent ${step.spent}. Grant the same budget again, or stop the run.`,
            reason: step.spent,
          },
        ]);
      case "plan":
        return this.plan(step.intention, step.verdict, signal);
      case "decompose":
        return this.decompose(step.intention, step.trigger, step.summary, signal);
      case "close-interrupted-cycle": {
        const cycle = { runId: this.runId, intentionId: step.intention.id, cycleId: step.cycleId };
        return this.append([
          {
            type: "cycle-result",
            ...cycle,
            exitCode: null,
            output: "(interrupted: the server stopped while this action ran; it will be tried again)",
            timedOut: false,
            error: null,
            durationMs: 0,
          },
          {
            type: "cycle-judged",
            ...cycle,
            judgment: "UNCLEAR",
            judgedBy: "auto",
            reason: "interrupted before its result was recorded",
          },
        ]);
      }
      case "act":
        return this.act(step.intention, step.previousAttempts, signal);
      case "integrate":
        return this.integrate(step.intention, step.childCount);
      case "execute-approved":
        return this.answered(step.intention, step.approval, true);
      case "skip-rejected":
        return this.answered(step.intention, step.approval, false);
      case "settle":
        return this.append([this.status(step.intention, step.status, step.reason)]);
    }
  }

  /** can_verify_directly said yes: work it. Said no: the model proposes a split (or overrules). */
  private async plan(intention: IntentionView, verdict: Verdict, signal: AbortSignal): Promise<void> {
    const opening: EventInput[] =
      intention.status === "PENDING" ? [this.status(intention, "ACTIVE", null)] : [];
    const criteria = parseAcceptance(intention.acceptance);
    if (criteria.length > 0 && intention.contract.length === 0) {
      opening.push({ type: "contract-built", runId: this.runId, intentionId: intention.id, criteria });
    }
    if (verdict.yes) {
      return this.append([
        ...opening,
        this.decision(intention, "verify-directly", `can verify directly: ${verdict.reason}`),
      ]);
    }
    if (opening.length > 0) await this.append(opening);
    const intent = this.view.runs[this.runId]?.intent;
    const repoSummary = intent ? summarizeIntent(intent) : undefined;
    const planned = await this.askPlan(intention, { task: intention.what, repoSummary }, signal);
    if (!planned) return;
    const { plan, call } = planned;
    if (plan.kind === "decompose") {
      return this.append([
        this.llmCalled(call, intention.id),
        ...this.proposal(
          intention,
          `cannot verify directly: ${verdict.reason}`,
          plan,
          await this.checkpoints(),
        ),
      ]);
    }
    const why = `${verdict.reason}, but the model judged it verifiable directly: ${plan.thought}`;
    return this.append([
      this.llmCalled(call, intention.id),
      this.decision(intention, "verify-directly", why),
    ]);
  }

  private async discover(root: IntentionView): Promise<void> {
    const memories = (await this.deps.memoriesOf?.(this.sessionId).catch(() => [])) ?? [];
    const intent = await discoverIntent(root.what, memories, () => this.workspace.listing());
    await this.append([{ type: "intent-discovered", runId: this.runId, intent }]);
  }

  /** should_decompose fired after direct work: split it, or fail it when it cannot be split. */
  private async decompose(
    intention: IntentionView,
    trigger: string,
    summary: string,
    signal: AbortSignal,
  ): Promise<void> {
    const input = { task: intention.what, mustDecompose: true, failureSummary: `${trigger}\n${summary}` };
    const planned = await this.askPlan(intention, input, signal);
    if (!planned) return;
    const { plan, call } = planned;
    if (plan.kind === "decompose") {
      return this.append([
        this.llmCalled(call, intention.id),
        ...this.proposal(intention, `should decompose: ${trigger}`, plan, await this.checkpoints()),
      ]);
    }
    const reason = `${trigger}; it cannot be decomposed further: ${plan.thought}`;
    return this.append([this.llmCalled(call, intention.id), this.status(intention, "FAILED", reason)]);
  }

  /** Seed 000: a decomposition has 2–5 children. The port is not trusted to have checked. */
  private proposal(
    intention: IntentionView,
    reason: string,
    plan: Extract<Plan, { kind: "decompose" }>,
    policy: CheckpointPolicy,
  ): EventInput[] {
    const count = plan.children.length;
    if (count < MIN_CHILDREN || count > MAX_CHILDREN) {
      const why = `the model proposed ${count} children; a decomposition needs ${MIN_CHILDREN} to ${MAX_CHILDREN}`;
      return [this.decision(intention, "decompose", reason), this.status(intention, "FAILED", why)];
    }
    const approvalId = randomUUID();
    const request: EventInput = {
      type: "approval-requested",
      runId: this.runId,
      approvalId,
      intentionId: intention.id,
      kind: "decomposition",
      children: plan.children,
      thought: plan.thought,
    };
    if (policy.decompositions === "ask") return [this.decision(intention, "decompose", reason), request];
    // The project lets the auto checkpoint approve decompositions: recorded as such, never silently.
    return [
      this.decision(intention, "decompose", reason),
      request,
      {
        type: "approval-decided",
        runId: this.runId,
        approvalId,
        decision: "approved",
        decidedBy: { userId: "auto", name: "auto checkpoint" },
        reason: "this project approves decompositions automatically",
      },
      ...childIntentions(this.runId, intention, plan.children),
    ];
  }

  private async askPlan(
    intention: IntentionView,
    input: Parameters<RivaDeps["model"]["plan"]>[0],
    signal: AbortSignal,
  ) {
    const record = { runId: this.runId, intentionId: intention.id, stage: "decompose" as const };
    const outcome = await callWithRetries(this.deps, record, signal, () =>
      this.deps.model.plan(input, signal),
    );
    if (outcome.failedAttempts.length > 0) await this.append(outcome.failedAttempts);
    if ("value" in outcome) return outcome.value;
    await this.modelFailed(intention, "decompose", outcome.error);
    return null;
  }

  private async act(
    intention: IntentionView,
    previousAttempts: string[],
    signal: AbortSignal,
  ): Promise<void> {
    const opening: EventInput[] =
      intention.status === "PENDING" ? [this.status(intention, "ACTIVE", null)] : [];
    if (previousAttempts.length > 0) {
      opening.push(
        this.decision(
          intention,
          "retry",
          `attempt ${previousAttempts.length + 1}: no decomposition trigger fired yet`,
        ),
      );
    }
    if (opening.length > 0) await this.append(opening);
    const input = {
      task: this.rootTask(),
      what: intention.what,
      acceptance: intention.acceptance,
      previousAttempts,
    };
    const record = { runId: this.runId, intentionId: intention.id, stage: "act" as const };
    const asked = await callWithRetries(this.deps, record, signal, () =>
      this.deps.model.nextAction(input, signal),
    );
    if (asked.failedAttempts.length > 0) await this.append(asked.failedAttempts);
    if (!("value" in asked)) return this.modelFailed(intention, "act", asked.error);
    const next = asked.value;
    const gate = gateCommand(next.action.command, intention.id, await this.checkpoints());
    const llm = this.llmCalled(next.call, intention.id);
    if (gate.decision === "ask") {
      return this.append([
        llm,
        {
          type: "approval-requested",
          runId: this.runId,
          approvalId: randomUUID(),
          intentionId: intention.id,
          kind: "command",
          thought: next.action.thought,
          command: next.action.command,
          binding: approvalBinding("shell.exec", { command: next.action.command }),
          confirm: gate.confirm === true,
          reason: gate.reason,
        },
      ]);
    }
    const cycle = { intention, thought: next.action.thought, command: next.action.command, approvalId: null };
    if (gate.decision === "deny")
      return this.blockedCycle(cycle, gate, "policy", `denied by the approval gate: ${gate.reason}`, [llm]);
    return this.runCycle(cycle, gate, [next.action.command], [llm]);
  }

  /** A person answered a command approval: run exactly what they approved, or record the skip. */
  private async answered(intention: IntentionView, approval: ApprovalView, approved: boolean): Promise<void> {
    const original = approval.command ?? "";
    const cycle = {
      intention,
      thought: approval.thought,
      command: approval.editedCommand ?? original,
      approvalId: approval.id,
    };
    const who = approval.decidedBy ?? "a user";
    if (!approved) {
      const why = approval.reason ? `: ${approval.reason}` : "";
      return this.blockedCycle(
        cycle,
        { decision: "ask", reason: approval.gateReason },
        who,
        `skipped: ${who} rejected the command${why}`,
      );
    }
    // What runs is exactly what was approved: the request is bound to a hash of its command.
    if (approval.binding !== approvalBinding("shell.exec", { command: original })) {
      return this.blockedCycle(
        cycle,
        { decision: "deny", reason: "binding mismatch" },
        "policy",
        "the approved command does not match its binding",
      );
    }
    if (approval.editedCommand !== null) {
      // An edited command goes back through the gate: a person's edit cannot reach a denied program.
      const regate = gateCommand(cycle.command, intention.id, await this.checkpoints());
      if (regate.decision === "deny")
        return this.blockedCycle(cycle, regate, "policy", `denied by the approval gate: ${regate.reason}`);
    }
    const edited = approval.editedCommand !== null ? " (edited)" : "";
    return this.runCycle(cycle, { decision: "approve", reason: `approved by ${who}${edited}` }, [
      original,
      cycle.command,
    ]);
  }

  /** One thought → action → result → judgment (→ reflection) cycle, for a command the gate let through. */
  private async runCycle(
    cycle: PlannedCycle,
    gate: GateRecord,
    criterionCommands: string[],
    before: EventInput[] = [],
  ): Promise<void> {
    const ids = { runId: this.runId, intentionId: cycle.intention.id, cycleId: randomUUID() };
    await this.append([...before, this.cycleStarted(ids, cycle, gate)]);
    const started = Date.now();
    const outcome = await this.workspace.run(cycle.command);
    let judged = judgeCommand(outcome);
    const events: EventInput[] = [
      { type: "cycle-result", ...ids, ...outcome, durationMs: Date.now() - started },
    ];
    let gap: CriterionResult[] = [];
    if (judged.judgment === "SUCCESS" && cycle.intention.contract.length > 0) {
      const results = await this.workspace.checkContract(cycle.intention, criterionCommands);
      events.push({ type: "criteria-checked", ...ids, results });
      judged = judgeWithContract(results);
      gap = gapOf(results);
    }
    events.push({
      type: "cycle-judged",
      ...ids,
      judgment: judged.judgment,
      judgedBy: "auto",
      reason: judged.reason,
    });
    if (judged.judgment !== "SUCCESS") {
      const reflection =
        gap.length > 0 ? gapReflection(gap) : reflectOnFailure(outcome, outcome.error ?? outcome.output);
      events.push({ type: "cycle-reflected", ...ids, reflection });
    }
    await this.append(events);
  }

  /** A cycle whose command did not run: denied by policy or rejected by a person. Judged FAILURE. */
  private async blockedCycle(
    cycle: PlannedCycle,
    gate: GateRecord,
    judgedBy: string,
    why: string,
    before: EventInput[] = [],
  ) {
    const ids = { runId: this.runId, intentionId: cycle.intention.id, cycleId: randomUUID() };
    const outcome = { exitCode: null, output: "", timedOut: false, error: why };
    await this.append([
      ...before,
      this.cycleStarted(ids, cycle, gate),
      { type: "cycle-result", ...ids, ...outcome, durationMs: 0 },
      { type: "cycle-judged", ...ids, judgment: "FAILURE", judgedBy, reason: why },
      {
        type: "cycle-reflected",
        ...ids,
        reflection: `Not run (${why}). Try another way to reach the acceptance.`,
      },
    ]);
  }

  private cycleStarted(
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

  private async checkpoints(): Promise<CheckpointPolicy> {
    this.policy ??=
      (await this.deps.checkpointsOf?.(this.sessionId).catch(() => null)) ?? DEFAULT_CHECKPOINTS;
    return this.policy;
  }

  private async integrate(intention: IntentionView, childCount: number): Promise<void> {
    let results: CriterionResult[];
    try {
      results = await this.workspace.checkContract(intention, []);
    } catch (error) {
      return this.append([
        this.status(intention, "FAILED", `integration check could not run: ${errorMessage(error)}`),
      ]);
    }
    const check: EventInput = {
      type: "criteria-checked",
      runId: this.runId,
      intentionId: intention.id,
      cycleId: null,
      results,
    };
    const gap = gapOf(results);
    const reason =
      gap.length === 0
        ? `integration check passed: all ${childCount} children verified and ${results.length} contract criteria hold`
        : `integration check failed: all ${childCount} children verified, but ${describeGap(gap)} does not hold`;
    return this.append([check, this.status(intention, gap.length === 0 ? "VERIFIED" : "FAILED", reason)]);
  }

  private async modelFailed(
    intention: IntentionView,
    stage: "act" | "decompose",
    error: unknown,
  ): Promise<void> {
    if (error instanceof Error && error.name === "AbortError") return; // stopping: the loop records it
    const message = errorMessage(error);
    this.deps.logger.warn({ err: error, runId: this.runId, stage }, "model call failed");
    const doing = stage === "act" ? "choose an action" : "plan";
    await this.append([
      {
        type: "llm-called",
        runId: this.runId,
        intentionId: intention.id,
        stage,
        modelId: this.deps.model.id,
        offline: this.deps.model.offline,
        tokensIn: 0,
        tokensOut: 0,
        latencyMs: 0,
        error: message,
      },
      this.status(intention, "FAILED", `the model could not ${doing}: ${message}`),
    ]);
  }

  /** Ends the run; an intention still ACTIVE fails with the run's reason so none is left open. */
  private async endRun(status: "VERIFIED" | "FAILED" | "STOPPED", reason: string): Promise<void> {
    await this.catchUp();
    if (this.view.runs[this.runId]?.status !== "RUNNING") return;
    const events: EventInput[] = Object.values(this.view.intentions)
      .filter((intention) => intention.runId === this.runId && intention.status === "ACTIVE")
      .sort((a, b) => b.depth - a.depth)
      .map((intention) => this.status(intention, "FAILED", reason));
    const label = status === "VERIFIED" ? "Verified" : status === "STOPPED" ? "Stopped" : "Failed";
    events.push(
      { type: "run-ended", runId: this.runId, status, reason },
      {
        type: "message-posted",
        messageId: randomUUID(),
        runId: this.runId,
        role: "agent",
        text: `${label}: ${reason}`,
      },
    );
    await this.append(events);
  }

  private rootTask(): string {
    const rootId = this.view.runs[this.runId]?.rootId;
    return (rootId && this.view.intentions[rootId]?.what) || "";
  }

  private status(intention: IntentionView, status: Settled, reason: string | null): EventInput {
    return { type: "intention-status-changed", runId: this.runId, intentionId: intention.id, status, reason };
  }

  private decision(
    intention: IntentionView,
    decision: "verify-directly" | "decompose" | "retry",
    reason: string,
  ): EventInput {
    return { type: "decision-made", runId: this.runId, intentionId: intention.id, decision, reason };
  }

  private llmCalled(call: ModelCallRecord, intentionId: string): EventInput {
    const costUsd = this.deps.priceOf?.(call) ?? (call.offline ? 0 : null);
    return { type: "llm-called", runId: this.runId, intentionId, ...call, error: null, costUsd };
  }

  private async append(bodies: EventInput[]): Promise<void> {
    const stored = await this.deps.log.append(this.sessionId, bodies);
    // Another writer (a person deciding an approval) may have appended in between: fold in order.
    if (stored[0] && stored[0].seq !== this.view.lastSeq + 1) return this.catchUp();
    for (const event of stored) applyEvent(this.view, event);
  }

  private async catchUp(): Promise<void> {
    for (;;) {
      const events = await this.deps.log.read(this.sessionId, this.view.lastSeq);
      if (events.length === 0) return;
      for (const event of events) applyEvent(this.view, event);
    }
  }
}
