import "server-only";
import type { Logger } from "pino";

interface CheckedHost {
  id: string;
  ping(): Promise<void>;
}

/**
 * One ping per host every interval. A host counts as healthy until a ping fails; the moment it goes
 * from answering to not, the lost listeners hear it once (again only after it answered in between);
 * the moment it answers again, the back listeners do.
 */
export class HostHealth {
  private readonly healthy = new Map<string, boolean>();
  private readonly listeners = {
    lost: [] as Array<(hostId: string) => void>,
    back: [] as Array<(hostId: string) => void>,
  };
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<void> | null = null;

  constructor(
    private readonly hosts: CheckedHost[],
    private readonly intervalMs: number,
    private readonly log: Logger,
  ) {
    for (const host of hosts) this.healthy.set(host.id, true);
  }

  isHealthy(hostId: string): boolean {
    return this.healthy.get(hostId) ?? false;
  }

  on(change: "lost" | "back", listener: (hostId: string) => void): void {
    this.listeners[change].push(listener);
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.checkAll(), this.intervalMs);
    this.timer.unref();
    void this.checkAll();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Pings every host once (a check still going is joined, not doubled). */
  checkAll(): Promise<void> {
    this.checking ??= Promise.all(this.hosts.map((host) => this.check(host))).then(() => {
      this.checking = null;
    });
    return this.checking;
  }

  private async check(host: CheckedHost): Promise<void> {
    const was = this.healthy.get(host.id) ?? true;
    const now = await host.ping().then(
      () => true,
      () => false,
    );
    this.healthy.set(host.id, now);
    if (was && !now) {
      this.log.warn({ host: host.id }, "Docker host stopped answering");
      for (const listener of this.listeners.lost) listener(host.id);
    } else if (!was && now) {
      this.log.info({ host: host.id }, "Docker host answers again");
      for (const listener of this.listeners.back) listener(host.id);
    }
  }
}
