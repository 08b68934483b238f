import type { RunBudget } from "@/server/domain/session/limits";
import type { ServerRunDefaults } from "@/server/settings/repo-run-settings";

/**
 * The server's own layer of run settings (what server/app-context.ts builds from the environment), for
 * tests whose routers read it through a stand-in app context: small limits, 1 CPU and 512 MB by default.
 */
export function testRunDefaults(budget: RunBudget | null = null): ServerRunDefaults {
  return {
    limits: { maxDepth: 10, maxCyclesPerIntention: 5, maxIterations: 10, wallClockMs: 300_000 },
    budget,
    resources: {
      defaults: { cpus: 1, memoryMb: 512, pids: 256, workspaceMb: 1024 },
      caps: { cpus: 2, memoryMb: 1024, pids: 512, workspaceMb: 1024 },
    },
  };
}
