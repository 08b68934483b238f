import "server-only";
import type Docker from "dockerode";
import type { Logger } from "pino";
import type { DockerHostConfig } from "@/server/domain/vocabulary/docker-hosts";
import type { EgressPhase, EgressSettings } from "@/server/domain/vocabulary/egress";
import { GiB } from "../container-spec";
import type { DockerSandboxProvider } from "../docker-provider";
import type {
  CreateSandboxOptions,
  EgressApplied,
  LiveSessionsQuery,
  Sandbox,
  SandboxProcess,
  SandboxProvider,
  SandboxTerminal,
  TerminalSize,
} from "../types";
import { SandboxError, SandboxUnavailableError } from "../types";
import { ensureImageOn, imageIdOf, measureHost, removeSupersededCopies } from "./docker-host";
import { HostHealth } from "./host-health";
import { type CurrentProjectImages, EngineImageUpkeep } from "./host-image-upkeep";
import type { HostImageStatus } from "./image-copies";
import type { ImageToRemove } from "./image-upkeep";
import { chooseHost, type HostLoad, noHostReason } from "./placement";

/** Where each session's sandbox runs, kept with the session (Session.dockerHost) so it survives restarts. */
export interface HostPins {
  hostOf(sessionId: string): Promise<string | null>;
  pin(sessionId: string, hostId: string | null): Promise<void>;
}

export interface DockerHostEntry {
  config: DockerHostConfig;
  docker: Docker;
  provider: DockerSandboxProvider;
  /** The host's own egress proxy (another host's squid container), kept alive on the health interval. */
  egress?: { heal(): Promise<void> };
}

export interface MultiHostOptions {
  hosts: DockerHostEntry[];
  pins: HostPins;
  /** The engine images are built on and copied from (the first host). */
  imageSource: Docker;
  /** Owner label: only this instance's sandboxes count towards a host's load. */
  instance: string;
  defaultMemoryBytes?: number;
  healthIntervalMs: number;
  log: Logger;
}

/** The message a session whose host went away shows; the same words in the event and the error. */
export function sandboxLostMessage(hostId: string): string {
  return `The sandbox's Docker host ${hostId} stopped answering: the sandbox and anything in it since the last snapshot are lost. Restart the sandbox on another host to go on from the last snapshot.`;
}

/**
 * A host that answers also gets its egress proxy checked (made again when its container stopped), in
 * the background: a proxy being made again never makes the host count as down.
 */
async function pingAndHealEgress(host: DockerHostEntry): Promise<void> {
  await host.provider.ping();
  void host.egress?.heal();
}

/**
 * Sandboxes on several Docker engines: each session is placed on a healthy host with free capacity
 * (placement.ts), pinned there, and every later call for it goes to that host's own provider (which
 * keeps its own warm pool, orphan sweep and hardening). A host that stops answering is reported
 * (`onHost`): its sessions' sandboxes are lost until restarted elsewhere or the host is back.
 */
export class MultiHostSandboxProvider implements SandboxProvider {
  private readonly byId: Map<string, DockerHostEntry>;
  readonly health: HostHealth;
  private readonly imageCopies = new Map<string, Promise<unknown>>();
  /** Per host: its image upkeep, with when it last looked and how many old images it removed since start. */
  private readonly upkeep: Map<string, EngineImageUpkeep>;

  constructor(private readonly options: MultiHostOptions) {
    this.byId = new Map(options.hosts.map((host) => [host.config.id, host]));
    this.upkeep = new Map(
      options.hosts.map((host) => [
        host.config.id,
        new EngineImageUpkeep({
          hostId: host.config.id,
          docker: host.docker,
          source: host.docker === options.imageSource ? null : options.imageSource,
          keepImages: [host.provider.image],
          log: options.log,
        }),
      ]),
    );
    this.health = new HostHealth(
      options.hosts.map((host) => ({ id: host.config.id, ping: () => pingAndHealEgress(host) })),
      options.healthIntervalMs,
      options.log,
    );
  }

  /** Told once per host each time it stops answering (`lost`), and each time it answers again (`back`). */
  onHost(change: "lost" | "back", listener: (hostId: string) => void): void {
    this.health.on(change, listener);
  }

  startHealthChecks(): void {
    this.health.start();
  }

  async close(): Promise<void> {
    this.health.stop();
    await Promise.all(this.options.hosts.map((host) => host.provider.close()));
  }

  /** The session's host id, if it was placed. */
  hostOf(sessionId: string): Promise<string | null> {
    return this.options.pins.hostOf(sessionId);
  }

  /** Forgets the session's host, so its next sandbox is placed again (on a healthy host). */
  async releaseHost(sessionId: string): Promise<void> {
    await this.options.pins.pin(sessionId, null);
  }

  /** The pinned host's provider; throws the "sandbox lost" error when that host is down. */
  private async pinned(sessionId: string): Promise<DockerHostEntry | null> {
    const hostId = await this.options.pins.hostOf(sessionId);
    if (hostId === null) return null;
    const host = this.byId.get(hostId);
    if (!host || !this.health.isHealthy(hostId))
      throw new SandboxUnavailableError(sandboxLostMessage(hostId));
    return host;
  }

  private async loads(): Promise<HostLoad[]> {
    return Promise.all(
      this.options.hosts.map(async (host): Promise<HostLoad> => {
        const healthy = this.health.isHealthy(host.config.id);
        if (!healthy)
          return { id: host.config.id, healthy, runningSessions: 0, maxSessions: 0, freeMemoryBytes: 0 };
        return measureHost(host.docker, host.config, this.options.instance).then(
          (load) => ({ ...load, healthy: true }),
          () => ({
            id: host.config.id,
            healthy: false,
            runningSessions: 0,
            maxSessions: 0,
            freeMemoryBytes: 0,
          }),
        );
      }),
    );
  }

  private async place(options: CreateSandboxOptions): Promise<DockerHostEntry> {
    const loads = await this.loads();
    const memory = options.limits?.memoryBytes ?? this.options.defaultMemoryBytes ?? GiB;
    const chosen = chooseHost(loads, memory);
    if (!chosen) throw new SandboxUnavailableError(noHostReason(loads));
    this.options.log.info({ sessionId: options.sessionId, host: chosen.id, loads }, "sandbox placed");
    await this.options.pins.pin(options.sessionId, chosen.id);
    return this.byId.get(chosen.id) as DockerHostEntry;
  }

  /**
   * The host's image of that name must be the source engine's by ID before a container is made from
   * it: a host that lacks it, or has an older build under the name, gets it by `docker save | docker
   * load` from the source (ensureImageOn). Concurrent sessions share one copy per (host, image ID);
   * each later create checks again (one inspect), so a rebuild on the source reaches the host on its
   * next session. After a copy, the copies it superseded there are removed when unused.
   */
  private async imageOn(host: DockerHostEntry, image: string): Promise<void> {
    if (host.docker === this.options.imageSource) return;
    const failed = (error: unknown) =>
      new SandboxError(
        "image_missing",
        `Cannot copy the sandbox image ${image} to Docker host ${host.config.id}.`,
        {
          cause: error,
        },
      );
    const sourceId = await imageIdOf(this.options.imageSource, image).catch((error: unknown) => {
      throw failed(error);
    });
    // Not on the source either: the host's provider says so in its own words (build it, or the project's).
    if (sourceId === null) return;
    const key = `${host.config.id}|${image}|${sourceId}`;
    let copying = this.imageCopies.get(key);
    if (!copying) {
      const started = Date.now();
      copying = ensureImageOn(host.docker, this.options.imageSource, image, sourceId).then((step) => {
        if (step === "present") return;
        this.options.log.info(
          { host: host.config.id, image, imageId: sourceId, step, ms: Date.now() - started },
          "image copied to host",
        );
        void removeSupersededCopies(host.docker).then(
          (removed) =>
            removed.length > 0 &&
            this.options.log.info({ host: host.config.id, removed }, "superseded image copies removed"),
          (error: unknown) =>
            this.options.log.warn({ host: host.config.id, err: error }, "image clean-up on a host failed"),
        );
      });
      this.imageCopies.set(key, copying);
      void copying.then(
        () => this.imageCopies.delete(key),
        () => this.imageCopies.delete(key),
      );
    }
    await copying.catch((error: unknown) => {
      throw failed(error);
    });
  }

  /** Per host: which sandbox image ID it has and whether it is the source's (what the status bar shows). */
  async imageStatus(): Promise<HostImageStatus[]> {
    const name = this.options.hosts[0]?.provider.image ?? "";
    const sourceId = await imageIdOf(this.options.imageSource, name).catch(() => null);
    return Promise.all(
      this.options.hosts.map(async (host): Promise<HostImageStatus> => {
        const healthy = this.health.isHealthy(host.config.id);
        const id = healthy ? await imageIdOf(host.docker, name).catch(() => null) : null;
        return {
          id: host.config.id,
          healthy,
          sandboxImageId: id,
          current: id !== null && id === sourceId,
          ...(this.upkeep.get(host.config.id) as EngineImageUpkeep).status,
        };
      }),
    );
  }

  /** Removes, on every healthy host, the image copies a newer one superseded and no container uses. */
  async removeSupersededImages(): Promise<string[]> {
    const removed = await Promise.all(
      this.options.hosts
        .filter((host) => host.docker !== this.options.imageSource && this.health.isHealthy(host.config.id))
        .map((host) => removeSupersededCopies(host.docker).catch(() => [])),
    );
    return removed.flat();
  }

  /**
   * On every healthy host, the source engine included: removes Arbor's own images that nothing needs
   * any more — superseded or stale copies, project images of an old hash (image-upkeep.ts decides) —
   * and logs what went. A host that fails is logged and tried again next round.
   */
  async upkeepImages(
    currentProjectImages: CurrentProjectImages,
    minProjectImageAgeMs: number,
  ): Promise<Array<ImageToRemove & { host: string }>> {
    const rounds = this.options.hosts
      .filter((host) => this.health.isHealthy(host.config.id))
      .map((host) =>
        (this.upkeep.get(host.config.id) as EngineImageUpkeep).run(
          currentProjectImages,
          minProjectImageAgeMs,
        ),
      );
    return (await Promise.all(rounds)).flat();
  }

  /**
   * A session with no host recorded whose container is already on a host (made before
   * ARBOR_DOCKER_HOSTS was set, when every sandbox was on the local engine) is pinned there.
   */
  private async adoptExisting(sessionId: string): Promise<DockerHostEntry | null> {
    for (const host of this.options.hosts) {
      if (!this.health.isHealthy(host.config.id)) continue;
      const found = await host.provider.get(sessionId).catch(() => null);
      if (found) {
        await this.options.pins.pin(sessionId, host.config.id);
        return host;
      }
    }
    return null;
  }

  async create(options: CreateSandboxOptions): Promise<Sandbox> {
    const host =
      (await this.pinned(options.sessionId)) ??
      (await this.adoptExisting(options.sessionId)) ??
      (await this.place(options));
    await this.imageOn(host, options.image ?? host.provider.image);
    return host.provider.create(options);
  }

  async get(sessionId: string): Promise<Sandbox | null> {
    const hostId = await this.options.pins.hostOf(sessionId);
    if (hostId === null) return (await this.adoptExisting(sessionId))?.provider.get(sessionId) ?? null;
    const host = this.byId.get(hostId);
    // A lost host's sandbox is gone; create() then says why.
    if (!host || !this.health.isHealthy(hostId)) return null;
    return host.provider.get(sessionId);
  }

  /** Each healthy host sweeps its own containers; a host that is down is swept when it is back. */
  async sweepOrphans(isLive: LiveSessionsQuery): Promise<{ removed: string[]; kept: string[] }> {
    const swept = await this.onHealthy((provider) => provider.sweepOrphans(isLive));
    // An old copy a session was still using when the new one arrived is free once its sandbox is gone.
    await this.removeSupersededImages();
    return swept;
  }

  async sweepCacheVolumes(
    liveProjects: (projectIds: string[]) => Promise<Set<string>>,
  ): Promise<{ removed: string[]; kept: string[] }> {
    return this.onHealthy((provider) => provider.sweepCacheVolumes(liveProjects));
  }

  private async onHealthy(
    sweep: (provider: DockerSandboxProvider) => Promise<{ removed: string[]; kept: string[] }>,
  ): Promise<{ removed: string[]; kept: string[] }> {
    const results = await Promise.all(
      this.options.hosts
        .filter((host) => this.health.isHealthy(host.config.id))
        .map((host) =>
          sweep(host.provider).catch((error: unknown) => {
            this.options.log.warn({ host: host.config.id, err: error }, "sweep on a Docker host failed");
            return { removed: [], kept: [] };
          }),
        ),
    );
    return { removed: results.flatMap((r) => r.removed), kept: results.flatMap((r) => r.kept) };
  }

  async copyWorkspace(fromSessionId: string, toSessionId: string): Promise<void> {
    const [from, to] = await Promise.all([this.pinned(fromSessionId), this.pinned(toSessionId)]);
    if (!from || from !== to)
      throw new SandboxError("not_found", "The two sandboxes are not on the same Docker host.");
    await from.provider.copyWorkspace(fromSessionId, toSessionId);
  }

  async removeProjectArtifacts(projectId: string): Promise<{ images: string[] }> {
    const results = await Promise.all(
      this.options.hosts
        .filter((host) => this.health.isHealthy(host.config.id))
        .map((host) => host.provider.removeProjectArtifacts(projectId).catch(() => ({ images: [] }))),
    );
    return { images: results.flatMap((result) => result.images) };
  }

  /** Answers while at least one host does; the error names the hosts when none does. */
  async ping(): Promise<void> {
    const pings = await Promise.allSettled(this.options.hosts.map((host) => host.provider.ping()));
    if (pings.some((ping) => ping.status === "fulfilled")) return;
    throw new SandboxUnavailableError(
      noHostReason(
        this.options.hosts.map((host) => ({
          id: host.config.id,
          healthy: false,
          runningSessions: 0,
          maxSessions: 0,
          freeMemoryBytes: 0,
        })),
      ),
    );
  }

  /** The runtimes every host offers (a session may land on any of them). */
  async runtimes(): Promise<string[]> {
    const lists = await Promise.all(
      this.options.hosts.map((host) => host.provider.runtimes().catch(() => null)),
    );
    const known = lists.filter((list): list is string[] => list !== null);
    if (known.length === 0) return [];
    return known.reduce((all, list) => all.filter((runtime) => list.includes(runtime)));
  }

  async openTerminal(sessionId: string, size: TerminalSize): Promise<SandboxTerminal> {
    const host = await this.pinned(sessionId);
    if (!host)
      throw new SandboxError("not_found", "This session has no sandbox: it was discarded or never started.");
    return host.provider.openTerminal(sessionId, size);
  }

  /** An MCP server's program, started by the session's host's provider (its proxy variables). */
  async openProcess(
    sessionId: string,
    argv: readonly string[],
    env?: Record<string, string>,
  ): Promise<SandboxProcess> {
    const host = await this.pinned(sessionId);
    if (!host)
      throw new SandboxError("not_found", "This session has no sandbox: it was discarded or never started.");
    return host.provider.openProcess(sessionId, argv, env);
  }

  async setEgressPhase(
    sessionId: string,
    phase: EgressPhase,
    settings: EgressSettings,
    recordAs?: string,
  ): Promise<EgressApplied> {
    const host = await this.pinned(sessionId);
    if (!host) throw new SandboxError("not_found", "This session has no sandbox.");
    return host.provider.setEgressPhase(sessionId, phase, settings, recordAs);
  }
}
