import "server-only";
import { randomBytes } from "node:crypto";
import type Docker from "dockerode";
import type { Logger } from "pino";
import { containerSpec, POOL_NAME_PREFIX, poolKeyOf, type SandboxLimits } from "./container-spec";
import { statusOf } from "./docker-errors";
import type { PoolEntry } from "./orphan-sweep";
import type { ShellAgents } from "./shell-agents";
import { type SandboxError, SandboxImageMissingError } from "./types";

export interface WarmPoolOptions {
  docker: Docker;
  shells: ShellAgents;
  log: Logger;
  /** Containers kept created, started and with their shell up (0: no pool). */
  size: number;
  /** How long after a claim the pool starts refilling (see DockerSandboxProviderOptions). */
  refillDelayMs: number;
  /** Owner label for the orphan sweep. */
  instance: string;
  /** The provider's default image and limits: only those are kept warm. */
  image: string;
  limits: SandboxLimits;
  wrap: (error: unknown, action: string) => SandboxError;
}

/** Removes a container and its persistent shell, ignoring a container that is already gone. */
export async function removeContainerQuietly(
  docker: Docker,
  shells: ShellAgents,
  containerId: string,
): Promise<void> {
  shells.forget(containerId);
  await docker
    .getContainer(containerId)
    .remove({ force: true, v: true })
    .catch(() => undefined);
}

/**
 * The warm pool of the Docker sandbox provider: containers of the default image on runc, without a
 * network or a cache volume, created and started ahead with their shell up, so a session that claims
 * one answers its first command at once. Refilled a little after each claim.
 */
export class WarmPool {
  private readonly entries: PoolEntry[] = [];
  private pending = 0;
  private filling: Promise<void> | null = null;
  private refillTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly options: WarmPoolOptions) {}

  /** How many warm containers wait to be claimed right now. */
  get ready(): number {
    return this.entries.length;
  }

  /** What a pool container must have been made with for a session with these limits to claim it. */
  keyFor(limits: SandboxLimits): string {
    return poolKeyOf({ image: this.options.image, allowNetwork: false, limits });
  }

  /** Tops the warm pool up to its size; resolves when it is full (or a creation failed). */
  async fill(): Promise<void> {
    if (this.options.size === 0 || this.closed) return;
    if (!this.filling) {
      // `.finally` always runs later than this assignment, so `filling` cannot stay set by mistake.
      const run: Promise<void> = this.topUp().finally(() => {
        if (this.filling === run) this.filling = null;
      });
      this.filling = run;
    }
    return this.filling;
  }

  /**
   * A pool container renamed to the session's name, or null when none is ready (or the name is taken).
   * Only a container made with the wanted key (image, network, limits) is claimed; others stay warm.
   */
  async claim(sessionName: string, key: string): Promise<Docker.Container | null> {
    // A container made before the image was rebuilt (or, on another host, re-copied) runs the old one.
    let currentImage: Promise<string | null> | undefined;
    for (let entry = this.take(key); entry; entry = this.take(key)) {
      this.refillSoon();
      const container = this.options.docker.getContainer(entry.id);
      try {
        const made = await container.inspect();
        currentImage ??= this.imageIdNow();
        if (made.Image !== (await currentImage)) {
          this.options.log.info({ container: entry.id }, "warm sandbox of a superseded image discarded");
          await this.remove(entry.id);
          continue;
        }
        await container.rename({ name: sessionName });
        return container;
      } catch (error) {
        if (statusOf(error) === 409) {
          // The session's name is taken (a concurrent create): the entry stays warm for someone else.
          this.entries.unshift(entry);
          return null;
        }
        // Gone or broken: drop it and try the next one.
        await this.remove(entry.id);
      }
    }
    this.refillSoon();
    return null;
  }

  /** The ID the pool's image name points to now; null when the engine has none (nothing is claimed). */
  private imageIdNow(): Promise<string | null> {
    return this.options.docker
      .getImage(this.options.image)
      .inspect()
      .then(
        (image) => image.Id,
        () => null,
      );
  }

  isPooled(containerId: string): boolean {
    return this.entries.some((entry) => entry.id === containerId);
  }

  /** Takes a container the orphan sweep found back into the pool, while there is room. */
  adopt(entry: PoolEntry): boolean {
    if (this.closed || this.entries.length + this.pending >= this.options.size) return false;
    this.entries.push(entry);
    return true;
  }

  /** Stops refilling and removes the unclaimed containers. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.refillTimer);
    this.refillTimer = undefined;
    await this.filling?.catch(() => undefined);
    const entries = this.entries.splice(0);
    await Promise.all(entries.map((entry) => this.remove(entry.id)));
  }

  private refillSoon(): void {
    if (this.options.size === 0 || this.closed || this.refillTimer) return;
    this.refillTimer = setTimeout(() => {
      this.refillTimer = undefined;
      void this.fill();
    }, this.options.refillDelayMs);
    this.refillTimer.unref();
  }

  private async topUp(): Promise<void> {
    try {
      while (!this.closed && this.entries.length + this.pending < this.options.size) {
        this.pending++;
        try {
          const entry = await this.create();
          if (this.closed) await this.remove(entry.id);
          else this.entries.push(entry);
        } finally {
          this.pending--;
        }
      }
    } catch (error) {
      this.options.log.warn(
        { err: error instanceof Error ? error.message : String(error) },
        "warm pool refill failed",
      );
    }
  }

  private async create(): Promise<PoolEntry> {
    const { docker, image, instance, limits, wrap } = this.options;
    const owner = instance.replace(/[^A-Za-z0-9_.-]/g, "-").slice(0, 64);
    const name = `${POOL_NAME_PREFIX}${owner}-${randomBytes(6).toString("hex")}`;
    // Only the provider's own limits are kept warm; a project with its own gets a container of its own.
    const key = this.keyFor(limits);
    const spec = containerSpec({
      name,
      sessionId: undefined,
      allowNetwork: false,
      image,
      instance,
      limits,
      poolKey: key,
      runtime: "runc",
    });
    let container: Docker.Container;
    try {
      container = await docker.createContainer(spec);
    } catch (error) {
      if (statusOf(error) === 404) throw new SandboxImageMissingError(image);
      throw wrap(error, "create a warm sandbox");
    }
    try {
      await container.start();
      // The shell is part of "warm": a claimed sandbox answers its first command at once.
      await this.options.shells.agentFor(container.id);
    } catch (error) {
      await this.remove(container.id);
      throw wrap(error, "start a warm sandbox");
    }
    return { id: container.id, name, key };
  }

  private take(key: string): PoolEntry | undefined {
    const index = this.entries.findIndex((entry) => entry.key === key);
    return index < 0 ? undefined : this.entries.splice(index, 1)[0];
  }

  private remove(containerId: string): Promise<void> {
    return removeContainerQuietly(this.options.docker, this.options.shells, containerId);
  }
}
