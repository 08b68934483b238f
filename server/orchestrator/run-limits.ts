import type { Logger } from "pino";
import type { RivaDeps } from "@/server/riva/ports";

export type RunBounds = Pick<RivaDeps, "limits" | "budget">;

/**
 * Each driving run's limits and budget (the server's, lowered by the repository's
 * `.arbor/config.yaml`), read once when the run starts driving here and forgotten when it stops.
 * When they cannot be read the server's hold (what an absent repository file gives), and the log says so.
 */
export class RunLimits {
  private readonly bounds = new Map<string, RunBounds>();

  constructor(
    private readonly read: ((sessionId: string) => Promise<RunBounds>) | undefined,
    private readonly logger: Logger,
  ) {}

  async resolve(sessionId: string, runId: string): Promise<void> {
    if (!this.read || this.bounds.has(runId)) return;
    const bounds = await this.read(sessionId).catch((error: unknown) => {
      this.logger.warn({ err: error, runId }, "run limits not read; the server's hold");
      return null;
    });
    if (bounds) this.bounds.set(runId, bounds);
  }

  /** The run's bounds to spread over the deps (empty: the deps' own). */
  of(runId: string): Partial<RunBounds> {
    return this.bounds.get(runId) ?? {};
  }

  forget(runId: string): void {
    this.bounds.delete(runId);
  }
}
