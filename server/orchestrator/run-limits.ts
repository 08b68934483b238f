import type { Logger } from "pino";
import { tightenBudget, tightenLimits } from "@/server/domain/settings/repo-tighten";
import { personBudget, personLimits, type UserSettings } from "@/server/domain/settings/user-config";
import type { RivaDeps } from "@/server/riva/ports";

export type RunBounds = Pick<RivaDeps, "limits" | "budget">;

/** Reads a session's bounds with a run's CLI user file layer over them (only ever tighter). */
export type ReadRunBounds = (sessionId: string, cliLayer?: UserSettings) => Promise<RunBounds>;

/**
 * Each driving run's limits and budget (the server's, lowered by the repository's
 * `.arbor/config.yaml`, the person's own settings and the run's recorded CLI user file), read once
 * when the run starts driving here and forgotten when it stops; and its checkpoint policy reader
 * with the same CLI layer. When the bounds cannot be read the server's hold (what an absent
 * repository file gives), lowered by the run's recorded CLI layer, which needs no read; the log says so.
 */
export class RunLimits {
  private readonly bounds = new Map<string, RunBounds>();
  private readonly layers = new Map<string, UserSettings>();

  private readonly read: ReadRunBounds | undefined;
  private readonly logger: Logger;
  private readonly checkpointsOf: RivaDeps["checkpointsOf"];
  /** The server's own bounds (the deps' limits and budget). */
  private readonly server: RunBounds;

  constructor(
    deps: Pick<RivaDeps, "logger" | "checkpointsOf" | "limits" | "budget"> & { runLimitsOf?: ReadRunBounds },
  ) {
    this.read = deps.runLimitsOf;
    this.logger = deps.logger;
    this.checkpointsOf = deps.checkpointsOf;
    this.server = { limits: deps.limits, budget: deps.budget ?? null };
  }

  /** `cliLayer`: the run's CLI user file as its run-started event recorded it (absent: none). */
  async resolve(sessionId: string, runId: string, cliLayer?: UserSettings | null): Promise<void> {
    if (cliLayer) this.layers.set(runId, cliLayer);
    if (!this.read || this.bounds.has(runId)) return;
    const bounds = await this.read(sessionId, cliLayer ?? undefined).catch((error: unknown) => {
      this.logger.warn({ err: error, runId }, "run limits not read; the server's hold");
      return cliLayer ? serverWithCliLayer(this.server, cliLayer) : null;
    });
    if (bounds) this.bounds.set(runId, bounds);
  }

  /** The run's bounds and checkpoint reader to spread over the deps (empty: the deps' own). */
  of(runId: string): Partial<RunBounds> & Pick<RivaDeps, "checkpointsOf"> {
    const layer = this.layers.get(runId);
    const read = this.checkpointsOf;
    return {
      ...(this.bounds.get(runId) ?? {}),
      ...(layer && read ? { checkpointsOf: (sessionId: string) => read(sessionId, layer) } : {}),
    };
  }

  forget(runId: string): void {
    this.bounds.delete(runId);
    this.layers.delete(runId);
  }
}

/** The server's bounds lowered by a run's CLI layer alone (only ever tighter, like every person layer). */
export function serverWithCliLayer(server: RunBounds, cliLayer: UserSettings): RunBounds {
  return {
    limits: personLimits(tightenLimits(server.limits, undefined), cliLayer.limits, "cli").value,
    budget: personBudget(tightenBudget(server.budget ?? null, undefined), cliLayer.budgets, "cli").value,
  };
}
