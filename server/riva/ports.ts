import type { Logger } from "pino";
import type { SandboxResources } from "@/server/domain/events/bodies/sandbox";
import type { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import type { RivaLimits, RunBudget } from "@/server/domain/session/limits";
import type { UserSettings } from "@/server/domain/settings/user-config";
import type { SandboxRuntime } from "@/server/domain/vocabulary/sandbox-runtime";
import type { ReasoningSwitch, Stage, UserMode } from "@/server/domain/vocabulary/stages";
import type { EventLog } from "@/server/events/log";
import type { Pricer } from "@/server/model/pricing";
import type { RunTiers } from "@/server/model/tiers/run-tiers";
import type { AgentModel, ExtraToolManual } from "@/server/model/types";
import type { SandboxProvider } from "@/server/sandbox/types";
import type { SessionEnvironment } from "@/server/setup/prepare-environment";
import type { ToolDefinition } from "@/server/tools/types";
import type { OutputSoFarStore } from "./output-so-far";

/**
 * Everything the RIVA engine needs from the world. The engine itself is pure decision-making over
 * the event log; these ports are where it acts (model, sandbox), records (log) and reads the time.
 */
export interface RivaDeps {
  log: EventLog;
  model: AgentModel;
  sandboxes: SandboxProvider;
  limits: RivaLimits;
  /** Milliseconds since the epoch; tests pass a controllable clock. */
  clock: () => number;
  commandTimeoutMs: number;
  /** The image sessions' containers run (recorded in events). */
  sandboxImage: string;
  /**
   * Where a session's sandbox clones from, the branch it works on, and the project's intents as the
   * `.orchestration/active_intents.yaml` to mirror into it (null or absent: leave the workspace's own).
   */
  workspaceOf(sessionId: string): Promise<{
    repoPath: string;
    branch: string;
    intentsFile?: string | null;
    /** The project's sandbox resources within the server's caps (absent: the provider's defaults). */
    resources?: SandboxResources;
    /**
     * The image and runtime a NEW sandbox of the session gets (the project's own image, built first
     * when needed, and its runtime); called only when the session has no sandbox yet. Absent: defaults.
     */
    sandboxChoice?: () => Promise<{ image?: string; runtime?: SandboxRuntime }>;
  }>;
  logger: Logger;
  /** Waits between model retries; tests pass one that does not wait. */
  sleep?(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * The project's checkpoint policy (which questions go to a person); default when absent. `cliLayer`:
   * the run's CLI user file (issue #20), which may only tighten it; the orchestrator passes the run's.
   */
  checkpointsOf?(sessionId: string, cliLayer?: UserSettings): Promise<CheckpointPolicy>;
  /** The run's money and token budget; absent means unlimited. */
  budget?: RunBudget | null;
  /** The price of a model call; absent means costs are not known (recorded as null). */
  priceOf?: Pricer;
  /** Concise lessons from the project's earlier verified runs, read by intent discovery. */
  memoriesOf?(sessionId: string): Promise<string[]>;
  /** Record what each cycle wrote in the trace ledger (git commands in the sandbox); off when absent. */
  traceLedger?: boolean;
  /** Read the repository (git status, last commits) before each act turn for the model; off when absent. */
  repoContext?: boolean;
  /**
   * The run's model tiers: the config and one model per tier, in the same order. An intention's
   * calls go to its tier's model; absent or null: every call goes to `model`.
   */
  tiers?: RunTiers | null;
  /** fs.write and fs.edit refuse to grow /workspace beyond this many bytes; absent means no cap. */
  workspaceMaxBytes?: number | null;
  /**
   * The project's sandbox environment (network per phase, setup command, setup secrets); absent: the
   * sandbox has no network and no setup runs.
   */
  environmentOf?(sessionId: string): Promise<SessionEnvironment>;
  /**
   * Where a running command's output tail and heartbeat are kept across a crash, for the card that asks
   * whether a cut-off command runs again (output-so-far.ts); absent: nothing is kept, the card says so.
   */
  outputSoFar?: OutputSoFarStore;
  /** The project's MCP tools in the session (server/tools/mcp/); absent: the catalogue's tools only. */
  mcpToolsOf?(sessionId: string): SessionExtraTools;
}

/**
 * Tools beyond the catalogue, for one session: the dispatch finds them by name, the stages offer them
 * as the stage policy allows (`server/policy/stages/mcp-offer.ts`).
 */
export interface SessionExtraTools {
  toolNamed(name: string): Promise<ToolDefinition | null>;
  /** Those one request may offer, as the model sees them (none when a server is down). */
  manuals(request: { stage: Stage; mode: UserMode; reasoning: ReasoningSwitch }): Promise<ExtraToolManual[]>;
  /** The servers that could not start (or stopped) in this session, with why. */
  startFailures(): Promise<{ server: string; error: string }[]>;
  /**
   * Whether a looking request (Chat's answer path) may offer a server that runs inside the sandbox, so
   * the sandbox must exist before the tools are listed. Reads the settings only: starts nothing.
   */
  lookingNeedsSandbox(): Promise<boolean>;
}
