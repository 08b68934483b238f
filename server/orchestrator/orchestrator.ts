import { randomUUID } from "node:crypto";
import { AnswerRunner } from "@/server/answer/answer-runner";
import { routeRun } from "@/server/answer/route";
import { errorMessage, UserFacingError } from "@/server/domain/errors";
import type { SessionView } from "@/server/domain/session/view";
import type { UserSettings } from "@/server/domain/settings/user-config";
import type { ReasoningSwitch, UserMode } from "@/server/domain/vocabulary/session";
import type { TwoPhaseOptions } from "@/server/domain/vocabulary/two-phase";
import { stepsOfflineCannotRead } from "@/server/model/heuristics/understood";
import { OFFLINE_MODEL_ID } from "@/server/model/offline-model";
import type { RunTiers } from "@/server/model/tiers/run-tiers";
import { twoPhaseConfig } from "@/server/model/tiers/two-phase";
import type { AgentModel } from "@/server/model/types";
import { RivaEngine } from "@/server/riva/engine";
import type { RivaDeps } from "@/server/riva/ports";
import { RunStopped } from "@/server/riva/stop";
import { foldSessionLog } from "@/server/runtime/session-runtime";
import type { ModelSettingValues } from "@/server/settings/layers";
import type { RunModelChoice } from "@/server/settings/run-model";
import { type Actor, approvalDecidedEvents, type DecideInput } from "./approval-decision";
import { offlineCannotReadEvents } from "./offline-cannot-read";
import { type CliConfigIgnored, cliConfigRecord, usedCliLayer } from "./run-cli-layer";
import { ANSWER_POLL_MS, type RunLeases, stoppedElsewhere } from "./run-leases";
import { type ReadRunBounds, RunLimits } from "./run-limits";
import { RestoreError, restoreFailure, restoreRunModel } from "./run-restore";
import { answersRun, recordResumed } from "./run-resume";
import { rootIntention, tiersConfigured } from "./run-start-events";

export interface OrchestratorDeps extends RivaDeps {
  /** Runs the log says are still going, across sessions: the ones to resume at startup. */
  runningRuns(): Promise<{ runId: string; sessionId: string }[]>;
  /**
   * The model a new run in this session uses (project/team settings, environment, run overrides);
   * absent: every run uses `model`. Throws a UserFacingError when the settings cannot be used.
   */
  modelForRun?(
    sessionId: string,
    overrides: RunModelChoice,
    cliLayer?: UserSettings,
  ): Promise<AgentModel & { provider?: string }>;
  /**
   * The run's model tiers when the model config declares them (null or absent: one model). Tier 0's
   * model is then the run's model. Throws a UserFacingError naming every tier that cannot be served.
   */
  tiersForRun?(
    sessionId: string,
    overrides: ModelSettingValues,
    cliLayer?: UserSettings,
  ): Promise<RunTiers | null>;
  /**
   * A run without tiers from the model config gets seed 002's two phases on its own model (simple,
   * then full mode), as these options say; absent: one model in simple mode, never escalating.
   */
  twoPhase?: TwoPhaseOptions | null;
  /**
   * Several instances on one database (PostgreSQL): a run is driven only by the instance holding its
   * lease (server/postgres/run-leases.ts). Absent (SQLite, one process): every run is driven here.
   */
  leases?: RunLeases;
  /**
   * The run's limits and budget: the server's, lowered by the repository's `.arbor/config.yaml`
   * (server/settings/repo-run-settings.ts), the person's own and the run's CLI user file. Read once
   * when a run starts driving here; absent: `limits` and `budget` as given.
   */
  runLimitsOf?: ReadRunBounds;
  /** What a run's CLI user file set that is looser than the layers below (recorded at its start). */
  cliConfigIgnored?: CliConfigIgnored;
}

/**
 * Starts, stops and resumes runs, and turns a person's answer into events. It reads state only from
 * the event log (never a projection table), so it behaves the same over SQLite or in memory. One
 * engine per running run; an answered approval wakes the engine waiting on it.
 */
export class Orchestrator {
  private readonly active = new Map<string, { controller: AbortController; done: Promise<void> }>();
  private readonly approvalWaiters = new Map<string, Set<() => void>>();
  /** The model each run resolved when it started, so a settings change never switches a run midway. */
  private readonly runModels = new Map<string, AgentModel>();
  private readonly runTiers = new Map<string, RunTiers | null>();
  private readonly runLimits: RunLimits;

  constructor(private readonly deps: OrchestratorDeps) {
    this.runLimits = new RunLimits(deps);
    deps.leases?.onStopRequested((runId, by) => this.active.get(runId)?.controller.abort(new RunStopped(by)));
  }

  get model() {
    return this.deps.model;
  }

  async startRun(input: {
    sessionId: string;
    task: string;
    mode: UserMode;
    /** The person's reasoning switch; only their click sets it (default off). */
    reasoning?: ReasoningSwitch;
    actor: Actor;
    /** Run overrides: the highest configuration layer (model name, timeout). */
    modelOverrides?: RunModelChoice;
    /** The server keys of the person's CLI user file: this run's own person layer (issue #20). */
    cliConfig?: UserSettings;
  }): Promise<{ runId: string }> {
    const task = input.task.trim();
    if (task.length === 0) throw new UserFacingError("Type a task for the agent first.", "BAD_REQUEST");
    const view = await this.viewOf(input.sessionId);
    if (Object.values(view.runs).some((run) => run.status === "RUNNING")) {
      throw new UserFacingError(
        "A run is already in progress in this session: stop it or wait for it to end.",
        "CONFLICT",
      );
    }
    const runId = randomUUID();
    // In a cluster the lease is taken before the run is in the log, so no other instance's resume
    // loop can mistake the new run for an orphan.
    if (this.deps.leases && !(await this.deps.leases.acquire(runId, input.sessionId)))
      throw new UserFacingError("Could not take the new run's lease: try again.", "CONFLICT");
    try {
      return await this.beginRun(input, task, runId);
    } catch (error) {
      await this.deps.leases?.release(runId);
      throw error;
    }
  }

  private async beginRun(
    input: Parameters<Orchestrator["startRun"]>[0],
    task: string,
    runId: string,
  ): Promise<{ runId: string }> {
    const picked = input.modelOverrides ?? {};
    const cliLayer = usedCliLayer(input.cliConfig);
    const { model, tiers } = await this.resolveRunModel(input.sessionId, picked, cliLayer ?? undefined);
    const cliConfig = await cliConfigRecord(input.sessionId, cliLayer, this.deps.cliConfigIgnored);
    this.runModels.set(runId, model);
    this.runTiers.set(runId, tiers);
    const route = routeRun(input.mode, task);
    // The offline model's rules cannot read it: answered at once instead of cycles that cannot succeed.
    const unread =
      route.route === "loop" && model.id === OFFLINE_MODEL_ID ? stepsOfflineCannotRead(task) : [];
    await this.deps.log.append(input.sessionId, [
      { type: "message-posted", messageId: randomUUID(), runId, role: "user", text: task },
      {
        type: "run-started",
        runId,
        task,
        mode: input.mode,
        reasoning: input.reasoning ?? "off",
        // Provider and model only: the settings' API key never enters the log.
        model: {
          id: model.id,
          label: model.label,
          offline: model.offline,
          ...("provider" in model && typeof model.provider === "string" ? { provider: model.provider } : {}),
        },
        startedBy: input.actor.userId,
        // What a restart resolves again to get exactly this model and these tiers (run-restore.ts).
        startedWith: picked,
        ...cliConfig,
      },
      ...tiersConfigured(runId, tiers),
      ...(unread.length > 0
        ? offlineCannotReadEvents(runId, route.kind, unread)
        : [
            { type: "run-routed" as const, runId, ...route },
            // The answer path has no intention tree: it explores read-only and replies.
            ...(route.route === "answer" ? [] : [rootIntention(runId, task)]),
          ]),
    ]);
    if (unread.length === 0) this.ensureDriving(input.sessionId, runId, true);
    return { runId };
  }

  async decide(input: DecideInput): Promise<void> {
    const view = await this.viewOf(input.sessionId);
    const { approval, aborting, events } = approvalDecidedEvents(view, input);
    await this.deps.log.append(input.sessionId, events);
    // Abort: the rejection is recorded, and the run ends now (the engine's wait ends with the stop).
    if (aborting) return this.stop(input.sessionId, approval.runId, input.actor);
    this.wake(approval.id);
    this.ensureDriving(input.sessionId, approval.runId);
  }

  /**
   * Stops a run now: a model call is cancelled, an approval wait ends, and a command that is running is
   * killed with its whole process tree (the cycle records who cut it). Resolves once the run is STOPPED.
   */
  async stop(sessionId: string, runId: string, actor?: Actor): Promise<void> {
    const run = (await this.viewOf(sessionId)).runs[runId];
    if (!run) throw new UserFacingError("That run does not exist.", "NOT_FOUND");
    if (run.status !== "RUNNING") return;
    const reason = new RunStopped(actor?.name ?? "the user");
    const active = this.active.get(runId);
    if (active) {
      active.controller.abort(reason);
      await active.done;
      return;
    }
    const leases = this.deps.leases;
    if (leases && !(await leases.acquire(runId, sessionId))) {
      // Another instance drives the run: it stops it at its next lease renewal.
      if (await leases.requestStop(runId, reason.by))
        return stoppedElsewhere(() => this.viewOf(sessionId), runId, leases);
      if (!(await leases.acquire(runId, sessionId)))
        throw new UserFacingError("The run changed hands while stopping it: press Stop again.", "CONFLICT");
    }
    try {
      await this.stopHere(sessionId, runId, reason);
    } finally {
      await leases?.release(runId);
    }
  }

  /** No engine (for example it crashed): a fresh one sees the abort at once and records the stop. */
  private async stopHere(sessionId: string, runId: string, reason: RunStopped): Promise<void> {
    const controller = new AbortController();
    controller.abort(reason);
    if (answersRun(await this.viewOf(sessionId), runId)) {
      await new AnswerRunner(this.deps, sessionId, runId).drive(controller.signal);
      return;
    }
    await this.engine(sessionId, runId).drive(controller.signal);
  }

  /**
   * Picks up every run that was going when the server stopped. Pending approvals stay pending. In a
   * cluster (leases), only the runs no live instance holds: the ones whose instance died, taken over
   * here; returns how many this instance picked up.
   */
  async resumeInterrupted(): Promise<number> {
    const runs = await this.deps.runningRuns();
    let resumed = 0;
    for (const run of runs) {
      if (this.deps.leases) {
        if (this.active.has(run.runId) || !(await this.deps.leases.acquire(run.runId, run.sessionId)))
          continue;
        resumed += 1;
      }
      if (!this.active.has(run.runId))
        await recordResumed(this.deps.log, this.deps.clock, run.sessionId, run.runId).catch((err) =>
          this.deps.logger.warn({ err, runId: run.runId }, "could not record the resume"),
        );
      this.ensureDriving(run.sessionId, run.runId, this.deps.leases !== undefined);
    }
    return this.deps.leases ? resumed : runs.length;
  }

  /** Resolves when every engine has finished (used by tests and graceful shutdown). */
  async idle(): Promise<void> {
    while (this.active.size > 0) await Promise.all([...this.active.values()].map((entry) => entry.done));
  }

  private viewOf(sessionId: string): Promise<SessionView> {
    return foldSessionLog(this.deps.log, sessionId);
  }

  private engine(
    sessionId: string,
    runId: string,
    model = this.deps.model,
    tiers: RunTiers | null = null,
  ): RivaEngine {
    return new RivaEngine(
      { ...this.deps, ...this.runLimits.of(runId), model, tiers },
      sessionId,
      runId,
      (id, signal) => this.waitForApproval(sessionId, id, signal),
    );
  }

  /** Seed 002's default phases on the run's own model, when the server turns them on. */
  private twoPhase(model: AgentModel): RunTiers | null {
    if (!this.deps.twoPhase) return null;
    const config = twoPhaseConfig(model, this.deps.twoPhase);
    return { config, models: config.tiers.map(() => model) };
  }

  /**
   * Drives the run here unless it already is. In a cluster the run's lease is taken first (unless
   * `leaseHeld`): when another live instance holds it, that instance drives the run and nothing
   * happens here. The lease is given back when the drive ends.
   */
  private ensureDriving(sessionId: string, runId: string, leaseHeld = false): void {
    if (this.active.has(runId)) return;
    const controller = new AbortController();
    const leases = this.deps.leases;
    const leased = !leases || leaseHeld ? Promise.resolve(true) : leases.acquire(runId, sessionId);
    const done = leased
      .then(async (held) => {
        if (!held) return;
        try {
          await this.drive(sessionId, runId, controller);
        } finally {
          await leases
            ?.release(runId)
            .catch((error: unknown) =>
              this.deps.logger.warn({ err: error, runId }, "run lease not given back"),
            );
        }
      })
      .finally(() => {
        this.active.delete(runId);
        this.runLimits.forget(runId);
      });
    this.active.set(runId, { controller, done });
  }

  private drive(sessionId: string, runId: string, controller: AbortController): Promise<void> {
    return this.runModelOf(sessionId, runId).then(
      async ({ model, tiers }) => {
        const view = await this.viewOf(sessionId);
        // The run's recorded CLI layer, so a resume here bounds it exactly as its start did.
        await this.runLimits.resolve(sessionId, runId, view.runs[runId]?.cliConfig?.settings);
        return answersRun(view, runId)
          ? new AnswerRunner({ ...this.deps, ...this.runLimits.of(runId), model }, sessionId, runId).drive(
              controller.signal,
            )
          : this.engine(sessionId, runId, model, tiers).drive(controller.signal);
      },
      (error: unknown) => {
        // A run that cannot go on as it started ends with the reason; no other model stands in.
        this.deps.logger.warn({ err: error, runId }, "run not resumed: its model or tiers changed");
        const reason =
          error instanceof RestoreError ? restoreFailure(error) : `the server: ${errorMessage(error)}`;
        controller.abort(new RunStopped(reason));
        return this.engine(sessionId, runId).drive(controller.signal);
      },
    );
  }

  /**
   * The model a run uses, as startRun resolves it: a run put on a model the person picked has no tiers
   * (escalation would swap their model for another); otherwise the config's tiers, or seed 002's two
   * phases on the run's own model, or none.
   */
  private async resolveRunModel(
    sessionId: string,
    picked: RunModelChoice,
    cliLayer?: UserSettings,
  ): Promise<{ model: AgentModel; tiers: RunTiers | null }> {
    const configTiers =
      picked.offline || picked.modelName || picked.provider
        ? null
        : ((await this.deps.tiersForRun?.(sessionId, picked, cliLayer)) ?? null);
    const model =
      configTiers?.models[0] ??
      (this.deps.modelForRun ? await this.deps.modelForRun(sessionId, picked, cliLayer) : this.deps.model);
    return { model, tiers: configTiers ?? this.twoPhase(model) };
  }

  /**
   * The model and tiers the run started with. After a restart they are resolved again from the
   * overrides `run-started` recorded and must come out the same (run-restore.ts), or the run stops.
   */
  private async runModelOf(
    sessionId: string,
    runId: string,
  ): Promise<{ model: AgentModel; tiers: RunTiers | null }> {
    const remembered = this.runModels.get(runId);
    if (remembered) return { model: remembered, tiers: this.runTiers.get(runId) ?? null };
    const run = (await this.viewOf(sessionId)).runs[runId];
    if (!run) throw new RestoreError("the run is not in the session's log");
    const cliLayer = run.cliConfig?.settings;
    const restored = await restoreRunModel(run, (overrides) =>
      this.resolveRunModel(sessionId, overrides, cliLayer),
    );
    this.runModels.set(runId, restored.model);
    this.runTiers.set(runId, restored.tiers);
    return restored;
  }

  private waitForApproval(sessionId: string, approvalId: string, signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      const waiters = this.approvalWaiters.get(approvalId) ?? new Set();
      let poll: NodeJS.Timeout | undefined;
      const done = () => {
        clearInterval(poll);
        waiters.delete(done);
        if (waiters.size === 0) this.approvalWaiters.delete(approvalId);
        signal.removeEventListener("abort", done);
        resolve();
      };
      waiters.add(done);
      this.approvalWaiters.set(approvalId, waiters);
      signal.addEventListener("abort", done, { once: true });
      // The answer may have landed between the engine's last read and this registration.
      const check = () =>
        void this.viewOf(sessionId).then((view) => {
          if (view.approvals[approvalId]?.status !== "PENDING") done();
        }, done);
      check();
      // In a cluster the answer may be given on another instance, which cannot wake this one.
      if (this.deps.leases) poll = setInterval(check, ANSWER_POLL_MS);
    });
  }

  private wake(approvalId: string): void {
    for (const waiter of [...(this.approvalWaiters.get(approvalId) ?? [])]) waiter();
  }
}
