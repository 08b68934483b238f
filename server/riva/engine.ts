import { randomUUID } from "node:crypto";
import { checkHintsFor } from "@/server/domain/contract/child-checks";
import { contractTargets, detectedFallback } from "@/server/domain/contract/detected-tests";
import type { EventInput } from "@/server/domain/events/schema";
import { summarizeIntent } from "@/server/domain/intent/discovered-intent";
import type { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import { applyEvent, emptySessionView } from "@/server/domain/session/fold";
import type { IntentionView, SessionView } from "@/server/domain/session/view";
import { commandOutput } from "@/server/events/command-output";
import { CycleLedger } from "@/server/governance/ledger/cycle-ledger";
import type { Plan } from "@/server/model/actions";
import type { ModelCallRecord } from "@/server/model/call-record";
import type { RequestContext } from "@/server/model/request-check";
import { runGrantsFor } from "@/server/policy/approval/run-pre-approvals";
import { checkpointsOfSession, foldSessionLog, sessionDispatch } from "@/server/runtime/session-runtime";
import type { ToolDispatch } from "@/server/tools/dispatch";
import { listWorkspace } from "@/server/tools/workspace-listing";
import { compressionEvent } from "./decide/act-compression";
import { actContext } from "./decide/act-context";
import { checkAnswered, personApprovalForCheck, roomForCycle } from "./decide/check-approvals";
import { checkpointEvents } from "./decide/checkpoint-events";
import { correctionEvents } from "./decide/correction-events";
import type { Verdict } from "./decide/heuristics";
import { recoveryOf } from "./decide/interrupted-cycle";
import { nextStep, workingMs } from "./decide/next-step";
import {
  budgetQuestion,
  type Decision,
  decisionMade,
  interruptedCycleEvents,
  llmCalledEvent,
  proposalEvents,
  runEndedEvents,
  type Settled,
  statusChanged,
} from "./decide/run-events";
import { enforcedIntent } from "./decide/run-scope";
import type { Step } from "./decide/step";
import { escalatedEvent, modelFor } from "./decide/tier-events";
import { type ActHost, carryOutAction, type Reviewer, readPortFor } from "./perform/act";
import { CycleRunner } from "./perform/cycle-runner";
import { discoverIntent } from "./perform/discovery";
import { callWithRetries, modelFailedEvents } from "./perform/model-calls";
import { checkDelivery, deliveryReported, type QaHost, qaNotesFor, reviewIntention } from "./perform/qa";
import { actCarry, afterActEvents, type ReasoningHost, warmUp } from "./perform/reasoning";
import { readRepoContext } from "./perform/repo-context";
import { chaosDue, chaosTurn, criticTurn, inFullMode, librarianTurn } from "./perform/roles";
import { runWorkspace } from "./perform/run-workspace";
import type { SessionWorkspace } from "./perform/session-workspace";
import {
  buildContract,
  contractEvents,
  modelReaderFor,
  testFirstAction,
  type UnderstandingHost,
} from "./perform/understanding";
import type { RivaDeps } from "./ports";
import { stoppedBy, withDeadline } from "./stop";

type Split = Extract<Plan, { kind: "decompose" }>;

/**
 * Drives one run to its end: fold the log, ask `nextStep` what to do, do it, append what happened,
 * repeat. All state lives in the log, so this object can be thrown away at any moment and a new one
 * continues the run (that is how resume after a restart works).
 */
export class RivaEngine {
  private view: SessionView = emptySessionView();
  private readonly workspace: SessionWorkspace;
  private readonly cycles: CycleRunner;
  private readonly tools: ToolDispatch;
  private policy: CheckpointPolicy | null = null;
  /** The model working the intention of the current step (model tiers change it between cycles). */
  private serving: { id: string } = { id: "" };

  constructor(
    private readonly deps: RivaDeps,
    private readonly sessionId: string,
    private readonly runId: string,
    private readonly waitForApproval: (approvalId: string, signal: AbortSignal) => Promise<void>,
  ) {
    // setup.run is decided by its own rule (a person's bound approval); the policy only has to be valid.
    this.workspace = runWorkspace(
      deps,
      { sessionId, runId },
      (events) => this.append(events),
      async () => ({
        checkpoints: await this.checkpoints(),
      }),
    );
    const serving = () => this.serving.id || deps.model.id;
    const ledger = deps.traceLedger
      ? new CycleLedger((command) => this.workspace.ledgerExec(command), {
          sessionId,
          get modelId() {
            return serving();
          },
          logger: deps.logger,
        })
      : undefined;
    this.tools = sessionDispatch({
      sandbox: () => this.workspace.box(),
      policy: async (context) => ({
        checkpoints: await this.checkpoints(),
        // The intention's scope approved with its decomposition, and this run's pre-approved categories.
        ...runGrantsFor(this.view, this.runId, context.intentionId ?? context.activeIntent?.id),
      }),
      // A child's approved scope, or the project intent the model selected, binds the live run.
      enforcedIntent: async (context) =>
        enforcedIntent(
          this.view,
          this.runId,
          context.intentionId ?? context.activeIntent?.id,
          context.activeIntent,
          await this.checkpoints(),
        ),
      commandTimeoutMs: deps.commandTimeoutMs,
      workspaceMaxBytes: deps.workspaceMaxBytes ?? null,
      // The project's own cap once its sandbox is known (the dispatch asks after acquiring it).
      workspaceCap: () => this.workspace.workspaceCapBytes() ?? deps.workspaceMaxBytes ?? null,
      logger: deps.logger,
      ...(ledger ? { ledger } : {}),
    });
    this.cycles = new CycleRunner({
      runId,
      workspace: this.workspace,
      checkpoints: () => this.checkpoints(),
      tools: this.tools,
      append: (bodies) => this.append(bodies),
      ...(ledger ? { ledger } : {}),
      liveOutput: {
        // Kept across a crash too (output-so-far.ts), for the card that asks whether it runs again.
        start: (ids) => deps.outputSoFar?.start(ids.cycleId),
        append: (ids, chunk) => {
          commandOutput.append(sessionId, ids, chunk);
          deps.outputSoFar?.append(ids.cycleId, chunk);
        },
        finish: (cycleId) => {
          commandOutput.finish(cycleId);
          deps.outputSoFar?.finish(cycleId);
        },
      },
      checkApproval: (intention, command) => personApprovalForCheck(this.view, intention, command),
      roomForCycle: (intention) => roomForCycle(this.view, this.runId, intention.id, deps.limits),
      checkAnswered: (intention, phase, command) => checkAnswered(this.view, intention, phase, command),
      detectedTests: (intention) => {
        const intent = this.view.runs[this.runId]?.intent;
        // The same plan the decomposition card showed (an intention that is a command gets none).
        return detectedFallback(intention, intent?.codebase, intent?.prompt.targets ?? []);
      },
      testHints: (intention) => checkHintsFor(intention, this.view.runs[this.runId]?.intent?.codebase),
    });
  }

  async drive(signal: AbortSignal): Promise<void> {
    this.workspace.stopOn(signal);
    try {
      for (;;) {
        await this.catchUp();
        if (signal.aborted) {
          await this.endRun("STOPPED", `stopped by ${stoppedBy(signal)}`);
          return;
        }
        const policy = await this.checkpoints();
        const step = nextStep(this.view, this.runId, {
          limits: this.deps.limits,
          now: this.deps.clock(),
          budget: this.deps.budget ?? null,
          questions: policy,
          tiers: this.deps.tiers?.config ?? null,
          qa: policy,
        });
        if (step.kind === "done") return;
        // Waiting for a person does not count as working time; every other step is cut at the wall clock.
        if (step.kind === "await-approval") {
          await this.perform(step, signal);
          continue;
        }
        const run = this.view.runs[this.runId];
        const remaining = run
          ? this.deps.limits.wallClockMs - workingMs(this.view, run, this.deps.clock())
          : this.deps.limits.wallClockMs;
        const timed = withDeadline(signal, remaining, this.deps.limits.wallClockMs);
        try {
          await this.perform(step, timed.signal);
        } finally {
          timed.dispose();
        }
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
    if ("intention" in step) this.serving = modelFor(this.deps, step.intention);
    switch (step.kind) {
      case "end":
        return this.endRun(step.status, step.reason);
      case "await-approval":
        return this.waitForApproval(step.approvalId, signal);
      case "discover":
        return this.discover(step.root, signal);
      case "warmup":
        return warmUp(this.host(), step.root, signal, readPortFor(this.host(), step.root, signal));
      case "ask-budget":
        return this.append([budgetQuestion(this.runId, step.root, step.spent)]);
      case "qa-review":
        return reviewIntention(this.host(), step.intention, signal);
      case "report-delivery":
        return this.append([deliveryReported(this.runId, step.state, step.reason)]);
      case "delivery-check":
        return checkDelivery(this.host(), step.intention, signal);
      case "plan":
        return this.plan(step.intention, step.verdict, signal);
      case "decompose":
        return this.decompose(step, signal);
      case "escalate":
        return this.append([escalatedEvent(this.runId, step)]);
      case "close-interrupted-cycle":
        return this.recoverInterrupted(step.intention, step.cycleId);
      case "act":
        return this.act(step.intention, step.previousAttempts, signal);
      case "integrate":
        return this.cycles.integrate(step.intention);
      case "execute-approved":
        return this.cycles.answered(step.intention, step.approval, true);
      case "skip-rejected":
        return this.cycles.answered(step.intention, step.approval, false);
      case "settle":
        return this.append([
          {
            ...this.status(step.intention, step.status, step.reason),
            ...(step.evidence ? { evidence: step.evidence } : {}),
          } as EventInput,
        ]);
      case "baseline":
        return this.cycles.baseline(step.intention);
      case "ask":
      case "judge":
      case "reflect":
      case "split-budget":
        return this.append(checkpointEvents(this.runId, step));
    }
  }

  /**
   * A cycle cut off by a crash: end what it left running in the sandbox, then re-run it only when it
   * is read-only; any other command waits for a person (decide/interrupted-cycle.ts).
   */
  private async recoverInterrupted(intention: IntentionView, cycleId: string): Promise<void> {
    const cycle = intention.cycles.find((entry) => entry.id === cycleId);
    if (!cycle) return this.append(interruptedCycleEvents(this.runId, intention.id, cycleId));
    const leftovers = await this.workspace.endLeftovers().catch((error: unknown) => {
      this.deps.logger.warn({ err: error, runId: this.runId }, "could not end leftover commands");
      return null;
    });
    const soFar = await (this.deps.outputSoFar?.read(cycleId) ?? Promise.resolve(null));
    const recovery = recoveryOf(this.runId, intention, cycle, leftovers, await this.checkpoints(), soFar);
    await this.append(recovery.events);
    await this.deps.outputSoFar?.forget(cycleId);
    if (recovery.kind !== "rerun") return;
    const rerun = {
      intention: this.view.intentions[intention.id] ?? intention,
      thought: `${cycle.thought}\n(run again after a restart: read-only)`,
      call: recovery.call,
      action: cycle.action,
      approvalId: null,
    };
    const gate = { decision: "approve" as const, reason: "read-only: run again after the server restarted" };
    return this.cycles.run(rerun, gate, []);
  }

  /** can_verify_directly said yes: work it. Said no: the model proposes a split (or overrules). */
  private async plan(intention: IntentionView, verdict: Verdict, signal: AbortSignal): Promise<void> {
    const opening: EventInput[] =
      intention.status === "PENDING" ? [this.status(intention, "ACTIVE", null)] : [];
    const intent = this.view.runs[this.runId]?.intent;
    const repoSummary = intent ? summarizeIntent(intent) : undefined;
    if (intention.contract.length === 0) {
      const context = {
        task: this.rootTask(),
        codebase: intent?.codebase,
        repoSummary,
        targets: contractTargets(intention, intent?.prompt.targets ?? []),
      };
      const contract = await buildContract(this.understandingHost(), intention, context, signal);
      opening.push(...contractEvents(this.runId, intention, contract));
    }
    if (verdict.yes) {
      return this.append([
        ...opening,
        this.decision(intention, "verify-directly", `can verify directly: ${verdict.reason}`),
      ]);
    }
    if (opening.length > 0) await this.append(opening);
    const planned = await this.askPlan(intention, { task: intention.what, repoSummary }, signal);
    if (!planned) return;
    const { plan, call } = planned;
    if (plan.kind === "decompose")
      return this.propose(intention, call, `cannot verify directly: ${verdict.reason}`, plan);
    const why = `${verdict.reason}, but the model judged it verifiable directly: ${plan.thought}`;
    return this.append([
      this.llmCalled(call, intention.id),
      this.decision(intention, "verify-directly", why),
    ]);
  }

  private async discover(root: IntentionView, signal: AbortSignal): Promise<void> {
    const memories = (await this.deps.memoriesOf?.(this.sessionId).catch(() => [])) ?? [];
    const reader = modelReaderFor(this.understandingHost(), root, signal);
    const intent = await discoverIntent(root.what, memories, () => listWorkspace(this.tools), reader);
    await this.append([{ type: "intent-discovered", runId: this.runId, intent }]);
  }

  /** should_decompose fired after direct work: split it, or fail it when it cannot be split. */
  private async decompose(step: Extract<Step, { kind: "decompose" }>, signal: AbortSignal): Promise<void> {
    const { intention, trigger, summary, fallback } = step;
    const input = { task: intention.what, mustDecompose: true, failureSummary: `${trigger}\n${summary}` };
    const planned = await this.askPlan(intention, input, signal);
    if (!planned) return;
    const { plan, call } = planned;
    if (plan.kind === "decompose") return this.propose(intention, call, `should decompose: ${trigger}`, plan);
    if (fallback)
      return this.append([this.llmCalled(call, intention.id), escalatedEvent(this.runId, fallback)]);
    const reason = `${trigger}; it cannot be decomposed further: ${plan.thought}`;
    return this.append([this.llmCalled(call, intention.id), this.status(intention, "FAILED", reason)]);
  }

  /** A proposed split: asked of a person, or approved by the auto checkpoint (see proposalEvents). */
  private async propose(intention: IntentionView, call: ModelCallRecord, why: string, plan: Split) {
    const asked = proposalEvents(this.runId, intention, why, plan, await this.checkpoints());
    return this.append([this.llmCalled(call, intention.id), ...asked]);
  }

  /** Seed 000: a decomposition has 2–5 children. The port is not trusted to have checked. */
  private async askPlan(
    intention: IntentionView,
    input: Parameters<RivaDeps["model"]["plan"]>[0],
    signal: AbortSignal,
  ) {
    const record = { ...this.requestContext(), intentionId: intention.id, stage: "decompose" as const };
    const model = modelFor(this.deps, intention);
    const { reasoning } = actCarry(this.view, this.runId, intention);
    const outcome = await callWithRetries({ ...this.deps, model }, record, signal, () =>
      model.plan({ ...input, request: this.requestContext(), ...(reasoning ? { reasoning } : {}) }, signal),
    );
    const corrections =
      "value" in outcome ? correctionEvents(this.runId, intention.id, outcome.value.call) : [];
    if (outcome.failedAttempts.length + corrections.length > 0)
      await this.append([...outcome.failedAttempts, ...corrections]);
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
    const attempt = intention.cycles.length + 1;
    const retry = `attempt ${attempt}: no decomposition trigger fired yet`;
    if (attempt > 1) opening.push(this.decision(intention, "retry", retry));
    if (opening.length > 0) await this.append(opening);
    if (chaosDue(this.host(), intention))
      await chaosTurn(this.host(), intention, await this.checkpoints(), signal);
    const testFirst = testFirstAction(intention);
    if (testFirst) return carryOutAction(this.host(), intention, testFirst, null);
    // The model may read a few times inside its turn; each read is logged as it happens.
    const reads = readPortFor(this.host(), intention, signal);
    const full = inFullMode(this.host(), intention);
    const rankedFiles = full ? await librarianTurn(this.host(), intention, this.tools, reads, signal) : "";
    // Built fresh from the store (decide/act-context.ts); a compression with news is recorded before the call.
    const repoContext = this.deps.repoContext ? await readRepoContext(this.tools) : "";
    const built = actContext(this.view, intention, repoContext);
    const compressed = compressionEvent(this.runId, intention, built.record);
    if (compressed) await this.append([compressed]);
    const input = {
      task: this.rootTask(),
      what: intention.what,
      acceptance: intention.acceptance,
      previousAttempts,
      context: built.body,
      request: this.requestContext(),
      ...(repoContext ? { repoContext } : {}),
      ...actCarry(this.view, this.runId, intention),
      qaNotes: qaNotesFor(this.view, intention, await this.checkpoints()),
      ...(rankedFiles ? { rankedFiles } : {}),
    };
    const record = { ...this.requestContext(), intentionId: intention.id, stage: "act" as const };
    const model = modelFor(this.deps, intention);
    const asked = await callWithRetries({ ...this.deps, model }, record, signal, () =>
      model.nextAction(input, signal, reads),
    );
    if (asked.failedAttempts.length > 0) await this.append(asked.failedAttempts);
    if (!("value" in asked)) return this.modelFailed(intention, "act", asked.error);
    const next = asked.value;
    const noted = afterActEvents(this.host(), intention, next, model);
    if (noted.length > 0) await this.append(noted);
    const review: Reviewer | undefined = full
      ? (thought, call, before) => criticTurn(this.host(), intention, thought, call, before, signal)
      : undefined;
    return carryOutAction(
      this.host(),
      intention,
      next.action,
      this.llmCalled(next.call, intention.id),
      review,
    );
  }

  private understandingHost(): UnderstandingHost {
    return {
      deps: this.deps,
      runId: this.runId,
      modelFor: (intention) => modelFor(this.deps, intention),
      request: () => this.requestContext(),
      llmCalled: (call, intentionId) => this.llmCalled(call, intentionId),
      checkpoints: () => this.checkpoints(),
      append: (bodies) => this.append(bodies),
    };
  }

  /** What the act, reasoning and QA steps need of the engine. */
  private host(): ActHost & ReasoningHost & QaHost {
    const { runId, tools, cycles, deps } = this;
    return {
      runId,
      tools,
      cycles,
      deps,
      view: () => this.view,
      request: () => this.requestContext(),
      modelFor: (intention) => modelFor(deps, intention),
      append: (bodies) => this.append(bodies),
    };
  }

  private async checkpoints(): Promise<CheckpointPolicy> {
    // A policy that cannot be read asks about everything (fail closed), never less.
    this.policy ??= await checkpointsOfSession(this.deps.checkpointsOf, this.sessionId);
    return this.policy;
  }

  private async modelFailed(intention: IntentionView, stage: "act" | "decompose", error: unknown) {
    const events = modelFailedEvents(
      this.requestContext(),
      intention,
      stage,
      modelFor(this.deps, intention),
      error,
    );
    if (!events) return;
    this.deps.logger.warn({ err: error, runId: this.runId, stage }, "model call failed");
    await this.append(events);
  }

  /** Ends the run; an intention still ACTIVE fails with the run's reason so none is left open. */
  private async endRun(status: "VERIFIED" | "FAILED" | "STOPPED", reason: string): Promise<void> {
    await this.catchUp();
    if (this.view.runs[this.runId]?.status !== "RUNNING") return;
    await this.append(runEndedEvents(this.view, this.runId, status, reason));
  }

  private rootTask(): string {
    const rootId = this.view.runs[this.runId]?.rootId;
    return (rootId && this.view.intentions[rootId]?.what) || "";
  }

  private status(intention: IntentionView, status: Settled, reason: string | null): EventInput {
    return statusChanged(this.runId, intention, status, reason);
  }

  private decision(intention: IntentionView, decision: Decision, reason: string): EventInput {
    return decisionMade(this.runId, intention, decision, reason);
  }

  private llmCalled(call: ModelCallRecord, intentionId: string): EventInput {
    return llmCalledEvent(this.runId, intentionId, call, this.deps.priceOf, this.requestContext());
  }

  /** The person's mode and reasoning switch as the run recorded them; every request carries them. */
  private requestContext(): RequestContext {
    const run = this.view.runs[this.runId];
    return { runId: this.runId, mode: run?.mode ?? "agent", reasoning: run?.reasoning ?? "off" };
  }

  private async append(bodies: EventInput[]): Promise<void> {
    const stored = await this.deps.log.append(this.sessionId, bodies);
    // Another writer (a person deciding an approval) may have appended in between: fold in order.
    if (stored[0] && stored[0].seq !== this.view.lastSeq + 1) return this.catchUp();
    for (const event of stored) applyEvent(this.view, event);
  }

  private async catchUp(): Promise<void> {
    await foldSessionLog(this.deps.log, this.sessionId, this.view);
  }
}
