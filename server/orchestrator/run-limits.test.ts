import pino from "pino";
import { describe, expect, it } from "vitest";
import { DEFAULT_CHECKPOINTS } from "@/server/domain/policy/checkpoints";
import { DEFAULT_LIMITS } from "@/server/domain/session/limits";
import type { UserSettings } from "@/server/domain/settings/user-config";
import { RunLimits, serverWithCliLayer } from "./run-limits";

/** A run's recorded CLI layer keeps bounding it, even when its session's bounds cannot be read. */
const server = { limits: DEFAULT_LIMITS, budget: { maxCostUsd: 1, maxTokens: null } };
const layer: UserSettings = {
  limits: { maxIterations: 2, maxDepth: DEFAULT_LIMITS.maxDepth + 1 },
  budgets: { maxCostUsd: 5, maxTokens: 100 },
};

describe("a run's bounds", () => {
  it("are the server's lowered by the CLI layer, never raised by it", () => {
    expect(serverWithCliLayer(server, layer)).toEqual({
      limits: { ...DEFAULT_LIMITS, maxIterations: 2 },
      budget: { maxCostUsd: 1, maxTokens: 100 },
    });
  });

  it("keep the recorded layer when the session's bounds cannot be read, and hand it to the checkpoint reader", async () => {
    const asked: (UserSettings | undefined)[] = [];
    const limits = new RunLimits({
      logger: pino({ level: "silent" }),
      limits: server.limits,
      budget: server.budget,
      runLimitsOf: async () => {
        throw new Error("database down");
      },
      checkpointsOf: async (_sessionId, cliLayer) => {
        asked.push(cliLayer);
        return DEFAULT_CHECKPOINTS;
      },
    });
    await limits.resolve("s1", "r1", layer);
    await limits.resolve("s1", "r2", null);
    expect(limits.of("r1").limits?.maxIterations).toBe(2);
    expect(limits.of("r2")).toEqual({});
    await limits.of("r1").checkpointsOf?.("s1");
    expect(asked).toEqual([layer]);
    limits.forget("r1");
    expect(limits.of("r1")).toEqual({});
  });
});
