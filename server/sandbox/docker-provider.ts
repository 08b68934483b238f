import "server-only";
import Docker from "dockerode";
import type { Logger } from "pino";
import type { EgressPhase, EgressSettings } from "@/server/domain/vocabulary/egress";
import type { SandboxRuntime } from "@/server/domain/vocabulary/sandbox-runtime";
import { logger as rootLogger } from "@/server/logger";
import { containerSpec, DEFAULT_SANDBOX_IMAGE, GiB, type SandboxLimits } from "./container-spec";
import { cacheMount, removeProjectArtifacts, sweepOrphanCacheVolumes } from "./dep-cache";
import { assertRuntimeUsable, engineAddressOf, engineRuntimes, pingEngine } from "./docker-engine";
import { statusOf, toSandboxError } from "./docker-errors";
import { runInContainer } from "./docker-exec";
import { DockerSandbox } from "./docker-sandbox";
import type { EgressGate } from "./egress/internal-network";
import { SandboxEgress } from "./egress/sandbox-egress";
import { sweepOrphanContainers } from "./orphan-sweep";
import { assertBareRepo, copyRepoInto } from "./repo-copy";
import { openContainerProcess } from "./sandbox-process";
import { findSessionContainer } from "./session-container";
import { containerNameFor } from "./shell";
import { ShellAgents } from "./shell-agents";
import { openContainerTerminal } from "./terminal";
import type {
  CreateSandboxOptions,
  EgressApplied,
  EgressRecords,
  LiveSessionsQuery,
  Sandbox,
  SandboxErrorCode,
  SandboxProcess,
  SandboxProvider,
} from "./types";
import { SandboxError, SandboxImageMissingError, type SandboxTerminal, type TerminalSize } from "./types";
import { removeContainerQuietly, WarmPool } from "./warm-pool";

export interface DockerSandboxProviderOptions {
  /** A ready client; otherwise one is made from `dockerOptions` (default: DOCKER_HOST or the local socket). */
  docker?: Docker;
  dockerOptions?: Docker.DockerOptions;
  image?: string;
  defaultTimeoutMs?: number;
  limits?: Partial<SandboxLimits>;
  logger?: Logger;
  /** Owner label for the orphan sweep (default "default"); see LABEL_INSTANCE. */
  instance?: string;
  /** Containers kept started with their shell up for create() to claim (default 0); network-less only. */
  poolSize?: number;
  /** Refill delay after a claim (default 1000 ms), so the new session's first commands go first. */
  poolRefillDelayMs?: number;
  /** Run commands through a persistent shell in each container (default true). */
  persistentShell?: boolean;
  /** Arbor's egress proxy; without it a networked phase can only be Open (bridge) or Off. */
  egress?: EgressGate;
  /** Where a running sandbox's recorded phase is read back on its first use in this process. */
  egressRecords?: EgressRecords;
}

/** One hardened container per session, driven through the Docker Engine API (dockerode). */
export class DockerSandboxProvider implements SandboxProvider {
  readonly image: string;
  private readonly docker: Docker;
  private readonly limits: SandboxLimits;
  private readonly defaultTimeoutMs: number;
  private readonly log: Logger;
  private readonly instance: string;
  private readonly pool: WarmPool;
  private readonly shells: ShellAgents;
  private readonly egress: SandboxEgress;

  constructor(options: DockerSandboxProviderOptions = {}) {
    this.docker = options.docker ?? new Docker(options.dockerOptions);
    this.image = options.image ?? DEFAULT_SANDBOX_IMAGE;
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? 120_000;
    this.limits = { memoryBytes: GiB, nanoCpus: 1e9, pidsLimit: 256, ...options.limits };
    this.log = (options.logger ?? rootLogger).child({ module: "sandbox" });
    this.instance = options.instance ?? "default";
    this.shells = new ShellAgents(this.docker, options.persistentShell ?? true, this.log);
    this.pool = new WarmPool({
      docker: this.docker,
      shells: this.shells,
      log: this.log,
      size: Math.max(0, Math.floor(options.poolSize ?? 0)),
      refillDelayMs: options.poolRefillDelayMs ?? 1_000,
      instance: this.instance,
      image: this.image,
      limits: this.limits,
      wrap: (error, action) => this.wrap(error, action),
    });
    const records = options.egressRecords ?? null;
    this.egress = new SandboxEgress(this.docker, options.egress ?? null, this.log, records);
  }

  /** See SandboxEgress.apply. */
  async setEgressPhase(
    sessionId: string,
    phase: EgressPhase,
    settings: EgressSettings,
    recordAs?: string,
  ): Promise<EgressApplied> {
    this.egress.hold(sessionId);
    const sandbox = await this.get(sessionId);
    if (!sandbox) throw new SandboxError("not_found", "This session has no sandbox.");
    return this.egress.apply(sandbox.id, recordAs ?? sessionId, phase, settings);
  }

  /** How many warm containers wait to be claimed right now. */
  get poolReady(): number {
    return this.pool.ready;
  }

  /** Tops the warm pool up to its size; resolves when it is full (or a creation failed). */
  fillPool(): Promise<void> {
    return this.pool.fill();
  }

  /** Stops refilling, removes the unclaimed pool containers and closes every persistent shell. */
  async close(): Promise<void> {
    await this.pool.close();
    this.shells.closeAll();
  }

  private removeQuietly(containerId: string): Promise<void> {
    return removeContainerQuietly(this.docker, this.shells, containerId);
  }

  /** Where the engine is expected, for error messages (never includes credentials). */
  get engineAddress(): string {
    return engineAddressOf(this.docker);
  }

  async ping(): Promise<void> {
    await pingEngine(this.docker).catch((error: unknown) => {
      throw this.wrap(error, "ping the Docker engine");
    });
  }

  /**
   * Sandboxes being made, per session: a second request for the same session (discovery's listing and
   * the terminal at once) waits for the first instead of starting or removing its half-made container.
   */
  private readonly creating = new Map<string, Promise<Sandbox>>();

  async create(options: CreateSandboxOptions): Promise<Sandbox> {
    const inflight = this.creating.get(options.sessionId);
    if (inflight) return inflight;
    const making = this.createOnce(options).finally(() => this.creating.delete(options.sessionId));
    this.creating.set(options.sessionId, making);
    return making;
  }

  private async createOnce(options: CreateSandboxOptions): Promise<Sandbox> {
    const { sessionId } = options;
    const name = containerNameFor(sessionId);
    const existing = await this.lookup(sessionId);
    if (existing) {
      this.log.info({ sessionId, container: name }, "re-attached to existing sandbox");
      return existing;
    }
    // A new container: its phases are this process's to set, nothing recorded applies to it.
    this.egress.hold(sessionId);
    const branch = options.branch ?? `arbor/${sessionId}`;
    if (branch.startsWith("-")) throw new SandboxError("invalid_argument", `Invalid branch name: ${branch}.`);
    if (options.repoPath) await assertBareRepo(options.repoPath);

    const image = options.image ?? this.image;
    const runtime = options.runtime ?? "runc";
    if (runtime === "runsc")
      await assertRuntimeUsable(runtime, options.allowNetwork ?? false, () => this.runtimes());

    const started = Date.now();
    let container: Docker.Container;
    const limits = options.limits ?? this.limits;
    // gVisor never gets a network (its runtime refuses one here): its egress is Off whatever is asked.
    const egressNetwork = runtime === "runsc" ? undefined : await this.egress.networkFor(options.egress);
    const cacheVolume = options.cacheProjectId
      ? await cacheMount(this.docker, {
          instance: this.instance,
          projectId: options.cacheProjectId,
          image: this.image,
        }).catch((error: unknown) => {
          throw this.wrap(error, "prepare the project's dependency cache");
        })
      : undefined;
    const networked = (options.allowNetwork ?? false) || egressNetwork !== undefined;
    // The pool holds only containers of the default image on runc, with neither a network nor a cache
    // volume, keyed by their limits.
    const poolable = !networked && !cacheVolume && image === this.image && runtime === "runc";
    const claimed = poolable ? await this.pool.claim(name, this.pool.keyFor(limits)) : null;
    if (claimed) {
      try {
        if (options.repoPath) await this.cloneInto(claimed, options.repoPath, branch);
      } catch (error) {
        await this.removeQuietly(claimed.id);
        throw error instanceof SandboxError ? error : this.wrap(error, "start the sandbox");
      }
      this.log.info(
        { sessionId, container: name, durationMs: Date.now() - started },
        "sandbox claimed from pool",
      );
      return this.sandboxFor(claimed.id, sessionId, { limits, image, runtime });
    }
    try {
      container = await this.docker.createContainer(
        containerSpec({
          name,
          sessionId,
          allowNetwork: networked,
          image,
          instance: this.instance,
          limits,
          runtime,
          ...(egressNetwork && egressNetwork !== "bridge" ? { egressNetwork } : {}),
          ...(cacheVolume ? { cacheVolume } : {}),
        }),
      );
    } catch (error) {
      // Another request created it first: use that one.
      if (statusOf(error) === 409) {
        const raced = await this.lookup(sessionId);
        if (raced) return raced;
      }
      if (statusOf(error) === 404) {
        if (image === this.image) throw new SandboxImageMissingError(this.image);
        throw new SandboxError(
          "image_missing",
          `The project's sandbox image ${image} is no longer in the Docker engine: build it again from the project page.`,
        );
      }
      throw this.wrap(error, "create the sandbox container");
    }
    try {
      // 304: another process's get() started it first; it is still ours to clone into.
      await container.start().catch((error: unknown) => {
        if (statusOf(error) !== 304) throw error;
      });
      if (options.repoPath) await this.cloneInto(container, options.repoPath, branch);
    } catch (error) {
      // A half-made sandbox would be re-attached by the next create(); remove it so a retry starts clean.
      await this.removeQuietly(container.id);
      throw error instanceof SandboxError ? error : this.wrap(error, "start the sandbox");
    }
    this.log.info(
      { sessionId, container: name, image, runtime, durationMs: Date.now() - started },
      "sandbox created",
    );
    return this.sandboxFor(container.id, sessionId, { limits, image, runtime });
  }

  async get(sessionId: string): Promise<Sandbox | null> {
    const inflight = this.creating.get(sessionId);
    if (inflight) return inflight.catch(() => null);
    return this.lookup(sessionId);
  }

  private async lookup(sessionId: string): Promise<Sandbox | null> {
    const found = await findSessionContainer(this.docker, containerNameFor(sessionId), {
      forget: (id) => this.shells.forget(id),
      wrap: (error, action) => this.wrap(error, action),
    });
    if (!found) return null;
    await this.egress.restoreOnce(sessionId, found.id);
    return this.sandboxFor(found.id, sessionId, found);
  }

  /** The runtimes the engine offers (`docker info`), e.g. ["runc", "runsc"]. */
  async runtimes(): Promise<string[]> {
    return engineRuntimes(this.docker).catch((error: unknown) => {
      throw this.wrap(error, "list the engine's runtimes");
    });
  }

  /**
   * A person's interactive shell (a TTY exec) in the session's sandbox, started again if it was stopped.
   * Only the terminal hub calls this; the agent's commands go through the tool dispatch and its gate.
   */
  async openTerminal(sessionId: string, size: TerminalSize): Promise<SandboxTerminal> {
    const container = await this.existing(sessionId);
    try {
      return await openContainerTerminal(container, size, this.egress.execEnvFor(sessionId));
    } catch (error) {
      throw this.wrap(error, "open a terminal in the sandbox", "exec_failed");
    }
  }

  async openProcess(
    sessionId: string,
    argv: readonly string[],
    env?: Record<string, string>,
  ): Promise<SandboxProcess> {
    const container = await this.existing(sessionId);
    try {
      return await openContainerProcess(container, argv, {
        env: { ...this.egress.execEnvFor(sessionId), ...env },
      });
    } catch (error) {
      throw this.wrap(error, "start a program in the sandbox", "exec_failed");
    }
  }

  /** The session's container (started again if it was stopped, its network given back), or not_found. */
  private async existing(sessionId: string): Promise<Docker.Container> {
    const sandbox = await this.get(sessionId);
    if (!sandbox)
      throw new SandboxError("not_found", "This session has no sandbox: it was discarded or never started.");
    return this.docker.getContainer(sandbox.id);
  }

  async sweepOrphans(isLive: LiveSessionsQuery): Promise<{ removed: string[]; kept: string[] }> {
    const result = await sweepOrphanContainers(isLive, {
      docker: this.docker,
      instance: this.instance,
      image: this.image,
      log: this.log,
      isPooled: (id) => this.pool.isPooled(id),
      adopt: (entry) => this.pool.adopt(entry),
      forget: (id) => this.shells.forget(id),
      wrap: (error, action) => this.wrap(error, action),
    });
    void this.pool.fill();
    return result;
  }

  /** Removes the cache volumes of projects that no longer exist (see dep-cache.ts); run at server start. */
  async sweepCacheVolumes(
    liveProjects: (projectIds: string[]) => Promise<Set<string>>,
  ): Promise<{ removed: string[]; kept: string[] }> {
    try {
      return await sweepOrphanCacheVolumes(this.docker, this.instance, liveProjects);
    } catch (error) {
      throw this.wrap(error, "sweep the dependency cache volumes");
    }
  }

  /**
   * Copies one session container's /workspace over another's, through the Engine's archive API (no
   * exec in either): a gVisor session gets what its runc setup container installed there.
   */
  async copyWorkspace(fromSessionId: string, toSessionId: string): Promise<void> {
    const [from, to] = await Promise.all([this.get(fromSessionId), this.get(toSessionId)]);
    if (!from || !to)
      throw new SandboxError("not_found", "The sandbox to copy the workspace between is gone.");
    try {
      // "/workspace/." archives the directory's content, so it unpacks into the other /workspace.
      const archive = await this.docker.getContainer(from.id).getArchive({ path: "/workspace/." });
      await this.docker.getContainer(to.id).putArchive(archive, { path: "/workspace" });
    } catch (error) {
      throw this.wrap(error, "copy the setup's workspace into the sandbox", "exec_failed");
    }
  }

  /** A deleted project's cache volume and built images (see dep-cache.ts). */
  async removeProjectArtifacts(projectId: string): Promise<{ images: string[] }> {
    return removeProjectArtifacts(this.docker, this.instance, projectId);
  }

  /** Copies the project into the container and clones it there (see repo-copy.ts). */
  private async cloneInto(container: Docker.Container, repoPath: string, branch: string): Promise<void> {
    const agent = await this.shells.agentFor(container.id);
    const run = (argv: string[]) =>
      agent?.isAlive
        ? agent.run(argv, { deadlineMs: 120_000 })
        : runInContainer(container, argv, { deadlineMs: 120_000 });
    await copyRepoInto(container, repoPath, branch, run, (error, action) => this.wrap(error, action));
  }

  private sandboxFor(
    containerId: string,
    sessionId: string,
    run: { limits?: SandboxLimits | undefined; image: string; runtime: SandboxRuntime },
  ): Sandbox {
    return new DockerSandbox({
      ...(run.limits ? { limits: run.limits } : {}),
      container: this.docker.getContainer(containerId),
      sessionId,
      containerName: containerNameFor(sessionId),
      image: run.image,
      runtime: run.runtime,
      defaultTimeoutMs: this.defaultTimeoutMs,
      log: this.log,
      wrap: (error, action) => this.wrap(error, action, "exec_failed"),
      agent: () => this.shells.agentFor(containerId),
      oomState: this.shells.oomStateFor(containerId),
      processEnv: () => this.egress.execEnvFor(sessionId),
      onDispose: () => {
        this.shells.forget(containerId);
        this.egress.forget(sessionId);
      },
    });
  }

  /** Turns a Docker client error into a typed one with a message fit for a user. */
  wrap(error: unknown, action: string, code: SandboxErrorCode = "create_failed"): SandboxError {
    return toSandboxError(error, action, code, this.engineAddress);
  }
}

export type { SandboxLimits } from "./container-spec";
