import type { SandboxResources, ToolchainVersion } from "@/server/domain/events/bodies/sandbox";
import type { EgressSettings } from "@/server/domain/vocabulary/egress";
import type { SandboxRuntime } from "@/server/domain/vocabulary/sandbox-runtime";
import { type LedgerExecResult, ledgerExecOf } from "@/server/governance/ledger/collect";
import { mirrorIntentsFile } from "@/server/intents/mirror";
import { limitsOf, resourcesOfLimits } from "@/server/sandbox/resources";
import type { Sandbox } from "@/server/sandbox/types";
import type { SessionEnvironment } from "@/server/setup/prepare-environment";
import type { RivaDeps } from "../ports";
import { stoppedBy } from "../stop";

export interface SandboxReady {
  containerName: string;
  reused: boolean;
  durationMs: number;
  /** What the container runs, as the engine reports it (absent: the provider does not say). */
  image?: string;
  runtime?: SandboxRuntime;
}

/** What the sandbox has (toolchain versions) and runs with (limits): the `sandbox-described` event. */
export interface SandboxDescription {
  toolchains: ToolchainVersion[];
  resources: SandboxResources | null;
}

/**
 * The session's sandbox as the engine uses it: found or created on first use (re-attached after a
 * restart), then shared by every action of the run (contract checks reach it through the dispatch).
 */
export class SessionWorkspace {
  private sandbox: Sandbox | null = null;
  private stopSignal: AbortSignal | null = null;
  private resources: SandboxResources | undefined;

  constructor(
    private readonly deps: Pick<
      RivaDeps,
      "sandboxes" | "workspaceOf" | "commandTimeoutMs" | "logger" | "environmentOf"
    >,
    private readonly sessionId: string,
    /** Called once, when the sandbox is first ready, so the engine can record it (and what it has). */
    private readonly onReady: (ready: SandboxReady, described: SandboxDescription) => Promise<void>,
    /**
     * Called once per acquire with the project's environment (when the deps give one), after the
     * sandbox is usable by the dispatch: the setup phase and the agent phase's network.
     */
    private readonly prepare?: (
      environment: SessionEnvironment,
      fresh: boolean,
      sandbox: Sandbox,
      gvisorSetup?: { sandboxSessionId: string; problem?: string },
    ) => Promise<void>,
  ) {}

  /**
   * The run's stop signal: aborting it kills the action running at that moment (its whole process
   * tree). Contract checks and the ledger are short bookkeeping and are not cut.
   */
  stopOn(signal: AbortSignal): void {
    this.stopSignal = signal;
  }

  /** Who stopped the run, once its signal is aborted; null while it goes on. */
  stoppedBy(): string | null {
    return this.stopSignal?.aborted ? stoppedBy(this.stopSignal) : null;
  }

  /** The run's stop signal, when the engine set one: the dispatch hands it to the action's exec. */
  signal(): AbortSignal | undefined {
    return this.stopSignal ?? undefined;
  }

  /** The project's /workspace cap in bytes, once the sandbox was acquired; undefined: the server's. */
  workspaceCapBytes(): number | null | undefined {
    if (!this.resources) return undefined;
    return this.resources.workspaceMb === null ? null : this.resources.workspaceMb * 1024 * 1024;
  }

  /** The session's sandbox, for the tool dispatch (the only caller that runs actions in it). */
  box(): Promise<Sandbox> {
    return this.acquire();
  }

  /** Ends what a crashed server left running in the sandbox (null: this sandbox cannot tell). */
  async endLeftovers(): Promise<{ ended: number; ranMs: number | null } | null> {
    const sandbox = await this.acquire();
    return sandbox.endLeftovers ? sandbox.endLeftovers() : null;
  }

  /** A git command of the trace ledger: stdout apart from stderr, read whole (4 MB cap). */
  async ledgerExec(command: string): Promise<LedgerExecResult> {
    return ledgerExecOf(await this.acquire(), this.deps.commandTimeoutMs)(command);
  }

  private async acquire(): Promise<Sandbox> {
    if (this.sandbox) return this.sandbox;
    const started = Date.now();
    const existing = await this.deps.sandboxes.get(this.sessionId);
    const { repoPath, branch, intentsFile, resources, sandboxChoice } = await this.deps.workspaceOf(
      this.sessionId,
    );
    this.resources = resources;
    const environment = (await this.deps.environmentOf?.(this.sessionId)) ?? null;
    const choice: { image?: string; runtime?: SandboxRuntime } =
      existing || !sandboxChoice ? {} : await sandboxChoice();
    const sandbox =
      existing ??
      (await this.deps.sandboxes.create({
        sessionId: this.sessionId,
        repoPath,
        branch,
        ...(resources ? { limits: limitsOf(resources) } : {}),
        ...choice,
        // A gVisor sandbox has no network (its runtime refuses one): its environment gives it none,
        // only the cache volume its runc setup container fills.
        ...(environment
          ? choice.runtime === "runsc"
            ? gvisorNeeds(environment)
            : sandboxNeeds(environment)
          : {}),
      }));
    // Each run starts from the project's intents as they are now (a reused sandbox included).
    if (intentsFile != null)
      await mirrorIntentsFile(sandbox, intentsFile).catch((error: unknown) =>
        this.deps.logger.warn(
          { err: error, sessionId: this.sessionId },
          "could not mirror the project's intents",
        ),
      );
    this.sandbox = sandbox;
    if (environment && this.prepare) {
      try {
        if (sandbox.runtime !== "runsc") await this.prepare(environment, existing === null, sandbox);
        else if (existing === null)
          await this.setupUnderRunc(environment, sandbox, {
            repoPath,
            branch,
            ...(resources ? { limits: limitsOf(resources) } : {}),
            ...(choice.image ? { image: choice.image } : {}),
          });
      } catch (error) {
        this.sandbox = null;
        throw error;
      }
    }
    const ready = {
      containerName: sandbox.containerName,
      reused: existing !== null,
      durationMs: Date.now() - started,
      ...(sandbox.image ? { image: sandbox.image } : {}),
      ...(sandbox.runtime ? { runtime: sandbox.runtime } : {}),
    };
    // What the container really runs with (a reused one keeps the limits it was made with).
    const limits = sandbox.limits ?? (resources ? limitsOf(resources) : undefined);
    await this.onReady(ready, {
      toolchains: sandbox.toolchains ? await sandbox.toolchains() : [],
      resources: limits ? resourcesOfLimits(limits, resources?.workspaceMb ?? null) : null,
    });
    return sandbox;
  }

  /**
   * A new gVisor sandbox's setup phase. runsc refuses networked containers on these engines, so the
   * approved setup command runs in a hardened runc container of its own (same image, limits and
   * hardening, the setup phase's network through the proxy) mounting the project's cache volume,
   * which the gVisor sandbox mounts too; then that container is removed. Its proxy rule is cleared
   * first: an address the rule named may be handed to another container later.
   */
  private async setupUnderRunc(
    environment: SessionEnvironment,
    gvisor: Sandbox,
    made: { repoPath: string; branch?: string; limits?: ReturnType<typeof limitsOf>; image?: string },
  ): Promise<void> {
    const prepare = this.prepare;
    if (!prepare) return;
    if (!environment.setup?.binding) {
      // Nothing runs: only the skipped setup and the agent phase (Off) are recorded.
      await prepare(environment, true, gvisor, { sandboxSessionId: this.sessionId });
      return;
    }
    const setupId = `${this.sessionId}.setup`;
    let box: Sandbox;
    try {
      box = await this.deps.sandboxes.create({
        sessionId: setupId,
        repoPath: made.repoPath,
        ...(made.branch ? { branch: made.branch } : {}),
        ...(made.limits ? { limits: made.limits } : {}),
        ...(made.image ? { image: made.image } : {}),
        runtime: "runc",
        ...sandboxNeeds(environment),
      });
    } catch (error) {
      // Like a failing setup: recorded with the reason, and the session goes on without it.
      const problem = `The setup's runc container could not be made: ${error instanceof Error ? error.message : String(error)}`;
      await prepare(environment, true, gvisor, { sandboxSessionId: this.sessionId, problem });
      return;
    }
    try {
      await prepare(environment, true, box, { sandboxSessionId: setupId });
      // What the setup installed in the workspace (node_modules, .venv…) goes to the gVisor sandbox.
      await this.deps.sandboxes.copyWorkspace?.(setupId, this.sessionId);
    } finally {
      const off: EgressSettings = { ...environment.egress, agent: { mode: "off", getHeadOnly: false } };
      await this.deps.sandboxes
        .setEgressPhase?.(setupId, "agent", off, this.sessionId)
        .catch((error: unknown) =>
          this.deps.logger.warn(
            { err: error, sessionId: this.sessionId },
            "could not cut the setup container off",
          ),
        );
      await box
        .dispose()
        .catch((error: unknown) =>
          this.deps.logger.warn(
            { err: error, sessionId: this.sessionId },
            "could not remove the setup container",
          ),
        );
    }
  }
}

/** A gVisor sandbox gets only the cache volume, and only when an approved setup will fill it. */
function gvisorNeeds(environment: SessionEnvironment): { cacheProjectId?: string } {
  return environment.setup?.binding != null ? { cacheProjectId: environment.projectId } : {};
}

/**
 * What the new container needs from the project's environment: a setup phase's network only when an
 * approved setup command will run, and the dependency cache only when something installs (the setup,
 * or an agent phase with network). Otherwise nothing, and the warm pool can serve it.
 */
function sandboxNeeds(environment: SessionEnvironment): { egress?: EgressSettings; cacheProjectId?: string } {
  const runsSetup = environment.setup?.binding != null;
  const egress: EgressSettings = runsSetup
    ? environment.egress
    : { ...environment.egress, setup: { mode: "off", getHeadOnly: false } };
  const installs = runsSetup || egress.agent.mode !== "off";
  return { egress, ...(installs ? { cacheProjectId: environment.projectId } : {}) };
}
