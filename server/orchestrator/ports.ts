import type { Logger } from "pino";
import type { EventStore } from "@/server/events/store";
import type { AgentModel } from "@/server/model/types";
import type { SandboxProvider } from "@/server/sandbox/types";
import type { StepLimits } from "./next-step";

/** Everything the orchestrator needs from the world, passed in so tests can build it for real parts. */
export interface OrchestratorDeps {
  store: EventStore;
  model: AgentModel;
  sandboxes: SandboxProvider;
  limits: StepLimits;
  commandTimeoutMs: number;
  /** The image sessions' containers run (recorded in events). */
  sandboxImage: string;
  /** Where a session's sandbox clones from, and the branch it works on. */
  workspaceOf(sessionId: string): Promise<{ repoPath: string; branch: string }>;
  logger: Logger;
}
