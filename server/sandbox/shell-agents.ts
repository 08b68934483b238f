import "server-only";
import type Docker from "dockerode";
import type { Logger } from "pino";
import { ShellAgent } from "./shell-agent";

/**
 * The provider's persistent shells: one per container id, shared by every Sandbox object for it, and
 * each container's out-of-memory count (kept beside its shell, and forgotten with it).
 */
export class ShellAgents {
  private readonly agents = new Map<string, Promise<ShellAgent | null>>();
  private readonly oomStates = new Map<string, { count: number }>();

  constructor(
    private readonly docker: Docker,
    /** Off: every command goes through a docker exec of its own. */
    private readonly enabled: boolean,
    private readonly log: Logger,
  ) {}

  /** The container's persistent shell, started on first use; null when it cannot be had. */
  agentFor(containerId: string): Promise<ShellAgent | null> {
    if (!this.enabled) return Promise.resolve(null);
    const current = this.agents.get(containerId);
    if (current) {
      return current.then((agent) => {
        if (agent?.isAlive) return agent;
        // Dead (the container restarted, the connection broke): start a new one next time.
        if (this.agents.get(containerId) === current) this.agents.delete(containerId);
        return agent === null ? null : this.agentFor(containerId);
      });
    }
    const started = ShellAgent.start(this.docker.getContainer(containerId)).catch((error: unknown) => {
      this.log.debug(
        { container: containerId, err: String(error) },
        "no persistent shell; using docker exec",
      );
      // Retry on a later command rather than remembering a failure forever.
      if (this.agents.get(containerId) === started) this.agents.delete(containerId);
      return null;
    });
    this.agents.set(containerId, started);
    return started;
  }

  /** Closes the container's shell (if any) and drops what was kept about it. */
  forget(containerId: string): void {
    const agent = this.agents.get(containerId);
    this.agents.delete(containerId);
    this.oomStates.delete(containerId);
    void agent?.then(
      (a) => a?.close(),
      () => undefined,
    );
  }

  oomStateFor(containerId: string): { count: number } {
    let state = this.oomStates.get(containerId);
    if (!state) {
      state = { count: 0 };
      this.oomStates.set(containerId, state);
    }
    return state;
  }

  /** Closes every shell (the provider is closing). */
  closeAll(): void {
    for (const [id, agent] of this.agents) {
      this.agents.delete(id);
      void agent.then(
        (a) => a?.close(),
        () => undefined,
      );
    }
  }
}
