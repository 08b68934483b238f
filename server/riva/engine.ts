import { randomUUID } from "node:crypto";
import type { EventInput } from "@/server/domain/events/schema";
import type { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import { applyEvent, emptySessionView } from "@/server/domain/session/fold";
import type { IntentionView, SessionView } from "@/server/domain/session/view";
import type { ModelCallRecord } from "@/server/model/call-record";
import type { RequestContext } from "@/server/model/request-check";
import type { ExtraToolManual } from "@/server/model/types";
import { checkpointsOfSession, foldSessionLog } from "@/server/runtime/session-runtime";
import type { ToolDispatch } from "@/server/tools/dispatch";
import { compressionEvent } from "./decide/act-compression";
import { actContext } from "./decide/act-context";
import { checkpointEvents } from "./decide/checkpoint-events";
import { recoveryOf } from "./decide/interrupted-cycle";
import { nextStep, workingMs } from "./decide/next-step";
import {
  budgetQuestion,
  type Decision,
  decisionMade,
  interruptedCycleEvents,
  llmCalledEvent,
  runEndedEvents,
  type Settled,
  statusChanged,
} from "./decide/run-events";
import type { Step } from "./decide/step";
import { escalatedEvent, modelFor } from "./decide/tier-events";
import { wireEngine } from "./engine-wiring";
import { type ActHost, carryOutAction, type Reviewer, readPortFor } from "./perform/act";
import type { CycleRunner } from "./perform/cycle-runner";
import { discoverIntent, listWithTrustedInstructions } from "./perform/discovery";
import { offeredMcpTools } from "./perform/mcp-tools";
import { callWithRetries, modelFailedEvents } from "./perform/model-calls";
import { decomposeIntention, type PlanningHost, planIntention, rootTaskOf } from "./perform/planning";
import { checkDelivery, deliveryReported, type QaHost, qaNotesFor, reviewIntention } from "./perform/qa";
import { actCarry, afterActEvents, type ReasoningHost, warmUp } from "./perform/reasoning";
import { guardRepairEvent } from "./perform/regression-guard";
import { readRepoContext } from "./perform/repo-context";
import { chaosDue, chaosTurn, criticTurn, inFullMode, librarianTurn } from "./perform/roles";
import type { SessionWorkspace } from "./perform/session-workspace";
import { modelReaderFor, testFirstAction, type UnderstandingHost } from "./perform/understanding";
import type { RivaDeps } from "./ports";
import { stoppedBy, withDeadline } from "./stop";

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
    ({
      workspace: this.workspace,
      tools: this.tools,
      cycles: this.cycles,
    } = wireEngine(
      deps,
      { sessionId, runId },
      {
        view: () => this.view,
        append: (bodies) => this.append(bodies),
        checkpoints: () => this.checkpoints(),
        servingModelId: () => this.serving.id || deps.model.id,
      },
    ));
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
        return planIntention(this.planningHost(), step.intention, step.verdict, signal);
      case "decompose":
        return decomposeIntention(this.planningHost(), step, signal);
      case "escalate":
        return this.append([escalatedEvent(this.runId, step)]);
      case "close-interrupted-cycle":
        return this.recoverInterrupted(step.intention, step.cycleId);
      case "act":
        return this.act(step.intention, step.previousAttempts, signal, step.retryReason);
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
      case "guard":
        return this.cycles.guard(step.root, step.phase, step.command);
      case "guard-repair":
        return this.append([guardRepairEvent(this.runId, step.root, step.reason)]);
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

  private async discover(root: IntentionView, signal: AbortSignal): Promise<void> {
    const memories = (await this.deps.memoriesOf?.(this.sessionId).catch(() => [])) ?? [];
    const reader = modelReaderFor(this.understandingHost(), root, signal);
    const repoPath = async () => (await this.deps.workspaceOf(this.sessionId)).repoPath;
    const listing = () => listWithTrustedInstructions(this.tools, repoPath);
    const discovered = await discoverIntent(root.what, memories, listing, reader);
    await this.append([{ type: "intent-discovered", runId: this.runId, intent: discovered }]);
  }

  private async act(
    intention: IntentionView,
    previousAttempts: string[],
    signal: AbortSignal,
    retryReason?: string,
  ): Promise<void> {
    const opening: EventInput[] =
      intention.status === "PENDING" ? [this.status(intention, "ACTIVE", null)] : [];
    const attempt = intention.cycles.length + 1;
    const retry = `attempt ${attempt}: ${retryReason ?? "no decomposition trigger fired yet"}`;
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
      ...(await this.mcpManuals()),
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

  private planningHost(): PlanningHost {
    return {
      ...this.understandingHost(),
      deps: this.deps,
      view: () => this.view,
      modelFailed: (intention, stage, error) => this.modelFailed(intention, stage, error),
    };
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

  /** The project's MCP tools the act stage offers; a server that cannot be reached offers none. */
  private async mcpManuals(): Promise<{ extraTools?: ExtraToolManual[] }> {
    const at = { sessionId: this.sessionId, runId: this.runId, view: () => this.view };
    const request = { ...this.requestContext(), stage: "act" as const };
    const manuals = await offeredMcpTools(this.deps, at, request, (bodies) => this.append(bodies));
    return manuals.length > 0 ? { extraTools: manuals } : {};
  }

  private rootTask(): string {
    return rootTaskOf(this.view, this.runId);
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
