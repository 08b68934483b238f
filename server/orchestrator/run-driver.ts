import { randomUUID } from "node:crypto";
import { applyEvent, emptySessionView, type IntentionView, type SessionView } from "@/server/events/fold";
import type { EventBody } from "@/server/events/schema";
import type { ModelCallRecord } from "@/server/model/types";
import type { Sandbox } from "@/server/sandbox/types";
import { errorMessage } from "./errors";
import { judgeCommand, reflectOnFailure } from "./judge";
import { nextStep, type Step } from "./next-step";
import type { OrchestratorDeps } from "./ports";

const MAX_OUTPUT_BYTES = 64 * 1024;

/**
 * Drives one run to its end: fold the log, ask `nextStep` what to do, do it, append what happened,
 * repeat. All state lives in the log, so this object can be thrown away at any moment and a new one
 * continues the run (that is how resume after a restart works).
 */
export class RunDriver {
  private view: SessionView = emptySessionView();
  private sandbox: Sandbox | null = null;

  constructor(
    private readonly deps: OrchestratorDeps,
    private readonly sessionId: string,
    private readonly runId: string,
    private readonly waitForApproval: (approvalId: string, signal: AbortSignal) => Promise<void>,
  ) {}

  async drive(signal: AbortSignal): Promise<void> {
    try {
      for (;;) {
        await this.catchUp();
        if (signal.aborted) {
          await this.endRun("STOPPED", "stopped by the user");
          return;
        }
        const step = nextStep(this.view, this.runId, this.deps.limits);
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
      case "plan":
        return this.plan(step.intention, signal);
      case "close-interrupted-cycle":
        return this.append([
          {
            type: "cycle-result",
            runId: this.runId,
            intentionId: step.intention.id,
            cycleId: step.cycleId,
            exitCode: null,
            output: "(interrupted: the server stopped while this action ran; it will be tried again)",
            timedOut: false,
            error: null,
            durationMs: 0,
          },
          {
            type: "cycle-judged",
            runId: this.runId,
            intentionId: step.intention.id,
            cycleId: step.cycleId,
            judgment: "UNCLEAR",
            judgedBy: "auto",
            reason: "the action was interrupted before its result was recorded",
          },
        ]);
      case "act":
        return this.act(step.intention, step.previousAttempts, signal);
      case "settle":
        return this.append([this.status(step.intention, step.status, step.reason)]);
    }
  }

  private async plan(intention: IntentionView, signal: AbortSignal): Promise<void> {
    const events: EventBody[] = [];
    if (intention.status === "PENDING") events.push(this.status(intention, "ACTIVE", null));
    if (intention.depth > 0) {
      events.push(
        this.decision(
          intention,
          "verify-directly",
          "a child of an approved decomposition is worked by action cycles",
        ),
      );
      return this.append(events);
    }
    await this.append(events);
    try {
      const { plan, call } = await this.deps.model.plan({ task: intention.what }, signal);
      if (plan.kind === "direct") {
        return this.append([
          this.llmCalled(call, intention.id, null),
          this.decision(intention, "verify-directly", plan.thought),
        ]);
      }
      return this.append([
        this.llmCalled(call, intention.id, null),
        this.decision(intention, "decompose", plan.thought),
        {
          type: "approval-requested",
          runId: this.runId,
          approvalId: randomUUID(),
          intentionId: intention.id,
          kind: "decomposition",
          children: plan.children,
          thought: plan.thought,
        },
      ]);
    } catch (error) {
      return this.modelFailed(intention, "decompose", error);
    }
  }

  private async act(
    intention: IntentionView,
    previousAttempts: string[],
    signal: AbortSignal,
  ): Promise<void> {
    if (intention.status === "PENDING") await this.append([this.status(intention, "ACTIVE", null)]);
    const root = this.rootTask();
    let next: Awaited<ReturnType<OrchestratorDeps["model"]["nextAction"]>>;
    try {
      next = await this.deps.model.nextAction(
        { task: root, what: intention.what, acceptance: intention.acceptance, previousAttempts },
        signal,
      );
    } catch (error) {
      return this.modelFailed(intention, "act", error);
    }
    const cycleId = randomUUID();
    await this.append([
      this.llmCalled(next.call, intention.id, null),
      {
        type: "cycle-started",
        runId: this.runId,
        intentionId: intention.id,
        cycleId,
        index: intention.cycles.length,
        thought: next.action.thought,
        action: { type: "COMMAND", content: next.action.command, target: null },
      },
    ]);
    const started = Date.now();
    let outcome: { exitCode: number | null; output: string; timedOut: boolean; error: string | null };
    try {
      const sandbox = await this.acquireSandbox();
      const result = await sandbox.exec(next.action.command, {
        timeoutMs: this.deps.commandTimeoutMs,
        maxOutputBytes: MAX_OUTPUT_BYTES,
      });
      const output = [result.stdout, result.stderr]
        .filter((part) => part.length > 0)
        .join(result.stdout.endsWith("\n") ? "" : "\n");
      outcome = { exitCode: result.exitCode, output, timedOut: result.timedOut, error: null };
    } catch (error) {
      this.deps.logger.warn({ err: error, runId: this.runId }, "action could not run");
      outcome = { exitCode: null, output: "", timedOut: false, error: errorMessage(error) };
    }
    const judged = judgeCommand(outcome);
    const cycle = { runId: this.runId, intentionId: intention.id, cycleId };
    const events: EventBody[] = [
      { type: "cycle-result", ...cycle, ...outcome, durationMs: Date.now() - started },
      { type: "cycle-judged", ...cycle, judgment: judged.judgment, judgedBy: "auto", reason: judged.reason },
    ];
    if (judged.judgment !== "SUCCESS") {
      events.push({
        type: "cycle-reflected",
        ...cycle,
        reflection: reflectOnFailure(outcome, outcome.error ?? outcome.output),
      });
    }
    await this.append(events);
  }

  private async acquireSandbox(): Promise<Sandbox> {
    if (this.sandbox) return this.sandbox;
    const started = Date.now();
    const existing = await this.deps.sandboxes.get(this.sessionId);
    const workspace = existing ? null : await this.deps.workspaceOf(this.sessionId);
    const sandbox =
      existing ??
      (await this.deps.sandboxes.create({
        sessionId: this.sessionId,
        repoPath: workspace?.repoPath,
        branch: workspace?.branch,
      }));
    this.sandbox = sandbox;
    await this.append([
      {
        type: "sandbox-ready",
        runId: this.runId,
        containerName: sandbox.containerName,
        image: this.deps.sandboxImage,
        reused: existing !== null,
        durationMs: Date.now() - started,
      },
    ]);
    return sandbox;
  }

  private async modelFailed(intention: IntentionView, stage: string, error: unknown): Promise<void> {
    const message = errorMessage(error);
    this.deps.logger.warn({ err: error, runId: this.runId, stage }, "model call failed");
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
      this.status(
        intention,
        "FAILED",
        `the model could not ${stage === "act" ? "choose an action" : "plan"}: ${message}`,
      ),
    ]);
  }

  private async endRun(status: "VERIFIED" | "FAILED" | "STOPPED", reason: string): Promise<void> {
    await this.catchUp();
    if (this.view.runs[this.runId]?.status !== "RUNNING") return;
    const events: EventBody[] = [];
    // A stopped run leaves no intention ACTIVE or PENDING behind: each open one fails with the reason.
    if (status === "STOPPED") {
      for (const intention of Object.values(this.view.intentions)) {
        if (
          intention.runId === this.runId &&
          (intention.status === "ACTIVE" || intention.status === "PENDING")
        ) {
          events.push(this.status(intention, "FAILED", reason));
        }
      }
    }
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

  private status(
    intention: IntentionView,
    status: "ACTIVE" | "VERIFIED" | "FAILED",
    reason: string | null,
  ): EventBody {
    return { type: "intention-status-changed", runId: this.runId, intentionId: intention.id, status, reason };
  }

  private decision(
    intention: IntentionView,
    decision: "verify-directly" | "decompose",
    reason: string,
  ): EventBody {
    return { type: "decision-made", runId: this.runId, intentionId: intention.id, decision, reason };
  }

  private llmCalled(call: ModelCallRecord, intentionId: string, error: string | null): EventBody {
    return { type: "llm-called", runId: this.runId, intentionId, ...call, error };
  }

  private async append(bodies: EventBody[]): Promise<void> {
    const stored = await this.deps.store.append(this.sessionId, bodies);
    // Another writer (a person deciding an approval) may have appended in between: fold in order.
    if (stored[0] && stored[0].seq !== this.view.lastSeq + 1) return this.catchUp();
    for (const event of stored) applyEvent(this.view, event);
  }

  private async catchUp(): Promise<void> {
    for (;;) {
      const events = await this.deps.store.read(this.sessionId, this.view.lastSeq);
      if (events.length === 0) return;
      for (const event of events) applyEvent(this.view, event);
    }
  }
}
