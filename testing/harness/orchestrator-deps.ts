import { DEFAULT_LIMITS } from "@/server/domain/session/limits";
import type { EventLog } from "@/server/events/log";
import { Orchestrator, type OrchestratorDeps } from "@/server/orchestrator/orchestrator";
import { foldSessionLog } from "@/server/runtime/session-runtime";
import { silentLogger } from "./fakes";

/**
 * The orchestrator's dependencies as the tests build them, written once: a test names its log, model
 * and sandboxes and whatever it tests (its clock, its checkpoints, its workspace), and takes the rest
 * from here. What the defaults are: the default limits, the real clock, a 30 s command limit, the
 * sandbox image, a silent logger, a workspace that is never cloned, and no run to resume.
 */
export function testOrchestratorDeps(
  deps: Pick<OrchestratorDeps, "log" | "model" | "sandboxes"> & Partial<OrchestratorDeps>,
): OrchestratorDeps {
  return {
    limits: DEFAULT_LIMITS,
    clock: Date.now,
    commandTimeoutMs: 30_000,
    sandboxImage: "arbor-sandbox:latest",
    logger: silentLogger,
    workspaceOf: async () => ({ repoPath: "/nowhere.git", branch: "b" }),
    runningRuns: async () => [],
    ...deps,
  };
}

/** An orchestrator over those dependencies. */
export function testOrchestrator(deps: Parameters<typeof testOrchestratorDeps>[0]): Orchestrator {
  return new Orchestrator(testOrchestratorDeps(deps));
}

/** `runningRuns` read from one session's log, as a restarted server finds them. */
export function runningRunsOfLog(log: Pick<EventLog, "read">, sessionId: string) {
  return async () =>
    Object.values((await foldSessionLog(log, sessionId)).runs)
      .filter((run) => run.status === "RUNNING")
      .map((run) => ({ runId: run.id, sessionId }));
}
