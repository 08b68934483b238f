import "server-only";
import { randomBytes } from "node:crypto";
import Docker from "dockerode";
import type { Logger } from "pino";
import type { EgressPhase, EgressSettings } from "@/server/domain/vocabulary/egress";
import type { SandboxRuntime } from "@/server/domain/vocabulary/sandbox-runtime";
import { logger as rootLogger } from "@/server/logger";
import {
  containerSpec,
  DEFAULT_SANDBOX_IMAGE,
  type EgressNetwork,
  GiB,
  LABEL_MANAGED,
  POOL_NAME_PREFIX,
  poolKeyOf,
  type SandboxLimits,
} from "./container-spec";
import {
  CACHE_DIR,
  CACHE_ENV,
  ensureCacheVolume,
  removeProjectArtifacts,
  sweepOrphanCacheVolumes,
} from "./dep-cache";
import { statusOf, toSandboxError } from "./docker-errors";
import { runInContainer } from "./docker-exec";
import { DockerSandbox } from "./docker-sandbox";
import type { EgressProxy } from "./egress/egress-proxy";
import { SandboxEgress } from "./egress/sandbox-egress";
import { type PoolEntry, sweepOrphanContainers } from "./orphan-sweep";
import { assertBareRepo, copyRepoInto } from "./repo-copy";
import { containerNameFor } from "./shell";
import { ShellAgents } from "./shell-agents";
import { openContainerTerminal } from "./terminal";
import type {
  CreateSandboxOptions,
  EgressApplied,
  LiveSessionsQuery,
  Sandbox,
  SandboxErrorCode,
  SandboxProvider,
} from "./types";
import { SandboxError, SandboxImageMissingError, type SandboxTerminal, type TerminalSize } from "./types";

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
  /**
   * Containers kept created, started and with their shell up, ready to be claimed by create() (default
   * 0: none). Only sessions without network use the pool.
   */
  poolSize?: number;
  /**
   * How long after a claim the pool starts refilling (default 1000 ms), so creating the replacement
   * does not compete with the new session's first commands for the engine and the CPU.
   */
  poolRefillDelayMs?: number;
  /** Run commands through a persistent shell in each container (default true). */
  persistentShell?: boolean;
  /** Arbor's egress proxy; without it a networked phase can only be Open (bridge) or Off. */
  egress?: EgressProxy;
}

/** One hardened container per session, driven through the Docker Engine API (dockerode). */
export class DockerSandboxProvider implements SandboxProvider {
  readonly image: string;
  private readonly docker: Docker;
  private readonly limits: SandboxLimits;
  private readonly defaultTimeoutMs: number;
  private readonly log: Logger;
  private readonly instance: string;
  private readonly poolSize: number;
  private readonly pool: PoolEntry[] = [];
  private poolPending = 0;
  private filling: Promise<void> | null = null;
  private readonly poolRefillDelayMs: number;
  private refillTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly shells: ShellAgents;
  private readonly egress: SandboxEgress;

  constructor(options: DockerSandboxProviderOptions = {}) {
    this.docker = options.docker ?? new Docker(options.dockerOptions);
    this.image = options.image ?? DEFAULT_SANDBOX_IMAGE;
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? 120_000;
    this.limits = { memoryBytes: GiB, nanoCpus: 1e9, pidsLimit: 256, ...options.limits };
    this.log = (options.logger ?? rootLogger).child({ module: "sandbox" });
    this.instance = options.instance ?? "default";
    this.poolSize = Math.max(0, Math.floor(options.poolSize ?? 0));
    this.poolRefillDelayMs = options.poolRefillDelayMs ?? 1_000;
    this.shells = new ShellAgents(this.docker, options.persistentShell ?? true, this.log);
    this.egress = new SandboxEgress(this.docker, options.egress ?? null, this.log);
  }

  /** See SandboxEgress.apply. */
  async setEgressPhase(
    sessionId: string,
    phase: EgressPhase,
    settings: EgressSettings,
    recordAs?: string,
  ): Promise<EgressApplied> {
    const sandbox = await this.get(sessionId);
    if (!sandbox) throw new SandboxError("not_found", "This session has no sandbox.");
    return this.egress.apply(sandbox.id, recordAs ?? sessionId, phase, settings);
  }

  private refillSoon(): void {
    if (this.poolSize === 0 || this.closed || this.refillTimer) return;
    this.refillTimer = setTimeout(() => {
      this.refillTimer = undefined;
      void this.fillPool();
    }, this.poolRefillDelayMs);
    this.refillTimer.unref();
  }

  /** How many warm containers wait to be claimed right now. */
  get poolReady(): number {
    return this.pool.length;
  }

  /** Tops the warm pool up to its size; resolves when it is full (or a creation failed). */
  async fillPool(): Promise<void> {
    if (this.poolSize === 0 || this.closed) return;
    if (!this.filling) {
      // `.finally` always runs later than this assignment, so `filling` cannot stay set by mistake.
      const run: Promise<void> = this.topUpPool().finally(() => {
        if (this.filling === run) this.filling = null;
      });
      this.filling = run;
    }
    return this.filling;
  }

  private async topUpPool(): Promise<void> {
    try {
      while (!this.closed && this.pool.length + this.poolPending < this.poolSize) {
        this.poolPending++;
        try {
          const entry = await this.createPoolContainer();
          if (this.closed) await this.removeQuietly(entry.id);
          else this.pool.push(entry);
        } finally {
          this.poolPending--;
        }
      }
    } catch (error) {
      this.log.warn(
        { err: error instanceof Error ? error.message : String(error) },
        "warm pool refill failed",
      );
    }
  }

  /** Stops refilling, removes the unclaimed pool containers and closes every persistent shell. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.refillTimer);
    this.refillTimer = undefined;
    await this.filling?.catch(() => undefined);
    const entries = this.pool.splice(0);
    await Promise.all(entries.map((entry) => this.removeQuietly(entry.id)));
    this.shells.closeAll();
  }

  private async createPoolContainer(): Promise<PoolEntry> {
    const owner = this.instance.replace(/[^A-Za-z0-9_.-]/g, "-").slice(0, 64);
    const name = `${POOL_NAME_PREFIX}${owner}-${randomBytes(6).toString("hex")}`;
    // Only the provider's own limits are kept warm; a project with its own gets a container of its own.
    const key = this.poolKey(this.limits);
    const spec = this.spec(name, undefined, false, { limits: this.limits, poolKey: key });
    let container: Docker.Container;
    try {
      container = await this.docker.createContainer(spec);
    } catch (error) {
      if (statusOf(error) === 404) throw new SandboxImageMissingError(this.image);
      throw this.wrap(error, "create a warm sandbox");
    }
    try {
      await container.start();
      // The shell is part of "warm": a claimed sandbox answers its first command at once.
      await this.shells.agentFor(container.id);
    } catch (error) {
      await this.removeQuietly(container.id);
      throw this.wrap(error, "start a warm sandbox");
    }
    return { id: container.id, name, key };
  }

  /** What a pool container must have been made with for a session with these limits to claim it. */
  private poolKey(limits: SandboxLimits): string {
    return poolKeyOf({ image: this.image, allowNetwork: false, limits });
  }

  /**
   * A pool container renamed to the session's name, or null when none is ready (or the name is taken).
   * Only a container made with the wanted key (image, network, limits) is claimed; others stay warm.
   */
  private async claimFromPool(sessionName: string, key: string): Promise<Docker.Container | null> {
    for (let entry = this.takeFromPool(key); entry; entry = this.takeFromPool(key)) {
      this.refillSoon();
      const container = this.docker.getContainer(entry.id);
      try {
        await container.rename({ name: sessionName });
        return container;
      } catch (error) {
        if (statusOf(error) === 409) {
          // The session's name is taken (a concurrent create): the entry stays warm for someone else.
          this.pool.unshift(entry);
          return null;
        }
        // Gone or broken: drop it and try the next one.
        await this.removeQuietly(entry.id);
      }
    }
    this.refillSoon();
    return null;
  }

  private takeFromPool(key: string): PoolEntry | undefined {
    const index = this.pool.findIndex((entry) => entry.key === key);
    return index < 0 ? undefined : this.pool.splice(index, 1)[0];
  }

  private async removeQuietly(containerId: string): Promise<void> {
    this.shells.forget(containerId);
    await this.docker
      .getContainer(containerId)
      .remove({ force: true, v: true })
      .catch(() => undefined);
  }

  /** Where the engine is expected, for error messages (never includes credentials). */
  get engineAddress(): string {
    const modem = this.docker.modem as unknown as { socketPath?: unknown; host?: unknown; port?: unknown };
    if (typeof modem.socketPath === "string") return modem.socketPath;
    if (typeof modem.host === "string") return `${modem.host}${modem.port ? `:${modem.port}` : ""}`;
    return "the default Docker socket";
  }

  async ping(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(Object.assign(new Error("timed out"), { code: "ETIMEDOUT" })), 5_000);
    });
    try {
      await Promise.race([this.docker.ping(), timeout]);
    } catch (error) {
      throw this.wrap(error, "ping the Docker engine");
    } finally {
      clearTimeout(timer);
    }
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
    const branch = options.branch ?? `arbor/${sessionId}`;
    if (branch.startsWith("-")) throw new SandboxError("invalid_argument", `Invalid branch name: ${branch}.`);
    if (options.repoPath) await assertBareRepo(options.repoPath);

    const image = options.image ?? this.image;
    const runtime = options.runtime ?? "runc";
    if (runtime === "runsc") await this.assertRuntimeUsable(runtime, options.allowNetwork ?? false);

    const started = Date.now();
    let container: Docker.Container;
    const limits = options.limits ?? this.limits;
    // gVisor never gets a network (its runtime refuses one here): its egress is Off whatever is asked.
    const egressNetwork = runtime === "runsc" ? undefined : await this.egress.networkFor(options.egress);
    const cacheVolume = options.cacheProjectId
      ? {
          name: await ensureCacheVolume(this.docker, {
            instance: this.instance,
            projectId: options.cacheProjectId,
            image: this.image,
          }).catch((error: unknown) => {
            throw this.wrap(error, "prepare the project's dependency cache");
          }),
          target: CACHE_DIR,
          env: CACHE_ENV,
        }
      : undefined;
    const networked = (options.allowNetwork ?? false) || egressNetwork !== undefined;
    // The pool holds only containers of the default image on runc, with neither a network nor a cache
    // volume, keyed by their limits.
    const poolable = !networked && !cacheVolume && image === this.image && runtime === "runc";
    const claimed = poolable ? await this.claimFromPool(name, this.poolKey(limits)) : null;
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
        this.spec(name, sessionId, networked, {
          limits,
          image,
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
    const name = containerNameFor(sessionId);
    let info: Docker.ContainerInspectInfo;
    try {
      info = await this.docker.getContainer(name).inspect();
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw this.wrap(error, "look up the sandbox");
    }
    if (info.Config.Labels?.[LABEL_MANAGED] !== "true") {
      throw new SandboxError(
        "create_failed",
        `A container named ${name} exists but is not managed by Arbor.`,
      );
    }
    if (!info.State.Running) {
      this.shells.forget(info.Id);
      try {
        await this.docker.getContainer(info.Id).start();
      } catch (error) {
        // 304: it was started in the meantime.
        if (statusOf(error) !== 304) throw this.wrap(error, "restart the sandbox");
      }
    }
    const host = info.HostConfig;
    const limits =
      host.Memory && host.NanoCpus && host.PidsLimit
        ? { memoryBytes: host.Memory, nanoCpus: host.NanoCpus, pidsLimit: host.PidsLimit }
        : undefined;
    return this.sandboxFor(info.Id, sessionId, {
      limits,
      image: info.Config.Image,
      runtime: info.HostConfig.Runtime === "runsc" ? "runsc" : "runc",
    });
  }

  /** The runtimes the engine offers (`docker info`), e.g. ["runc", "runsc"]. */
  async runtimes(): Promise<string[]> {
    try {
      const info = (await this.docker.info()) as { Runtimes?: Record<string, unknown> };
      return Object.keys(info.Runtimes ?? {});
    } catch (error) {
      throw this.wrap(error, "list the engine's runtimes");
    }
  }

  /** gVisor needs the engine to have it registered, and never has a network on these engines. */
  private async assertRuntimeUsable(runtime: SandboxRuntime, allowNetwork: boolean): Promise<void> {
    if (allowNetwork)
      throw new SandboxError(
        "invalid_argument",
        "A gVisor (runsc) sandbox has no network: choose runc for a session that needs one.",
      );
    if (!(await this.runtimes()).includes(runtime))
      throw new SandboxError(
        "unavailable",
        `The Docker engine has no ${runtime} runtime (gVisor). Run scripts/ensure-runsc.sh as root on the server, or choose runc in the project's settings.`,
      );
  }

  /**
   * A person's interactive shell (a TTY exec) in the session's sandbox, started again if it was stopped.
   * Only the terminal hub calls this; the agent's commands go through the tool dispatch and its gate.
   */
  async openTerminal(sessionId: string, size: TerminalSize): Promise<SandboxTerminal> {
    const sandbox = await this.get(sessionId);
    if (!sandbox) {
      throw new SandboxError("not_found", "This session has no sandbox: it was discarded or never started.");
    }
    try {
      return await openContainerTerminal(this.docker.getContainer(sandbox.id), size);
    } catch (error) {
      throw this.wrap(error, "open a terminal in the sandbox", "exec_failed");
    }
  }

  async sweepOrphans(isLive: LiveSessionsQuery): Promise<{ removed: string[]; kept: string[] }> {
    const result = await sweepOrphanContainers(isLive, {
      docker: this.docker,
      instance: this.instance,
      image: this.image,
      log: this.log,
      isPooled: (id) => this.pool.some((entry) => entry.id === id),
      adopt: (entry) => {
        if (this.closed || this.pool.length + this.poolPending >= this.poolSize) return false;
        this.pool.push(entry);
        return true;
      },
      forget: (id) => this.shells.forget(id),
      wrap: (error, action) => this.wrap(error, action),
    });
    void this.fillPool();
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

  private spec(
    name: string,
    sessionId: string | undefined,
    allowNetwork: boolean,
    made: {
      limits?: SandboxLimits;
      poolKey?: string;
      image?: string;
      runtime?: SandboxRuntime;
      egressNetwork?: EgressNetwork;
      cacheVolume?: { name: string; target: string; env: string[] };
    } = {},
  ) {
    return containerSpec({
      name,
      sessionId,
      allowNetwork,
      ...(made.egressNetwork ? { egressNetwork: made.egressNetwork } : {}),
      ...(made.cacheVolume ? { cacheVolume: made.cacheVolume } : {}),
      image: made.image ?? this.image,
      instance: this.instance,
      limits: made.limits ?? this.limits,
      ...(made.poolKey !== undefined ? { poolKey: made.poolKey } : {}),
      runtime: made.runtime ?? "runc",
    });
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
