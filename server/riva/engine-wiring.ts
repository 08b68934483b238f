import { checkHintsFor } from "@/server/domain/contract/child-checks";
import { detectedFallback } from "@/server/domain/contract/detected-tests";
import type { EventInput } from "@/server/domain/events/schema";
import type { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import type { SessionView } from "@/server/domain/session/view";
import { commandOutput } from "@/server/events/command-output";
import { CycleLedger } from "@/server/governance/ledger/cycle-ledger";
import { runGrantsFor } from "@/server/policy/approval/run-pre-approvals";
import { sessionDispatch } from "@/server/runtime/session-runtime";
import type { ToolDispatch } from "@/server/tools/dispatch";
import { checkAnswered, personApprovalForCheck, roomForCycle } from "./decide/check-approvals";
import { enforcedScope } from "./decide/run-scope";
import { CycleRunner } from "./perform/cycle-runner";
import { runWorkspace } from "./perform/run-workspace";
import type { SessionWorkspace } from "./perform/session-workspace";
import type { RivaDeps } from "./ports";

/**
 * The parts a run's engine works through, built once per engine: the session's sandbox as the run
 * sees it, the one door (dispatch) with the run's grants and enforced scope, and the cycle runner.
 * Everything they read of the run (the folded view, the checkpoint policy) is read when they need it,
 * through the engine, so they never hold a stale copy.
 */
export interface EngineParts {
  workspace: SessionWorkspace;
  tools: ToolDispatch;
  cycles: CycleRunner;
}

/** What the parts read of, and write through, the engine. */
export interface EngineAccess {
  view(): SessionView;
  append(bodies: EventInput[]): Promise<void>;
  checkpoints(): Promise<CheckpointPolicy>;
  /** The id of the model working the current step (model tiers change it between cycles). */
  servingModelId(): string;
}

export function wireEngine(
  deps: RivaDeps,
  ids: { sessionId: string; runId: string },
  engine: EngineAccess,
): EngineParts {
  const { sessionId, runId } = ids;
  // setup.run is decided by its own rule (a person's bound approval); the policy only has to be valid.
  const workspace = runWorkspace(
    deps,
    { sessionId, runId },
    (events) => engine.append(events),
    async () => ({
      checkpoints: await engine.checkpoints(),
    }),
  );
  const ledger = deps.traceLedger
    ? new CycleLedger((command) => workspace.ledgerExec(command), {
        sessionId,
        get modelId() {
          return engine.servingModelId();
        },
        logger: deps.logger,
      })
    : undefined;
  const tools = sessionDispatch({
    sandbox: () => workspace.box(),
    policy: async (context) => ({
      checkpoints: await engine.checkpoints(),
      // The intention's scope approved with its decomposition, and this run's pre-approved categories.
      ...runGrantsFor(engine.view(), runId, context.intentionId ?? context.activeIntent?.id),
    }),
    // A child's approved scope, or the project intent the model selected, binds the live run.
    enforcedIntent: async (context) =>
      enforcedScope(
        engine.view(),
        runId,
        context.intentionId ?? context.activeIntent?.id,
        context.activeIntent,
        await engine.checkpoints(),
      ),
    commandTimeoutMs: deps.commandTimeoutMs,
    workspaceMaxBytes: deps.workspaceMaxBytes ?? null,
    // The project's own cap once its sandbox is known (the dispatch asks after acquiring it).
    workspaceCap: () => workspace.workspaceCapBytes() ?? deps.workspaceMaxBytes ?? null,
    logger: deps.logger,
    ...(ledger ? { ledger } : {}),
    // The project's MCP tools pass the same gates; a session without servers finds none.
    ...(deps.mcpToolsOf
      ? { extraTool: (name: string) => deps.mcpToolsOf?.(sessionId).toolNamed(name) ?? Promise.resolve(null) }
      : {}),
  });
  const cycles = new CycleRunner({
    runId,
    workspace,
    checkpoints: () => engine.checkpoints(),
    tools,
    append: (bodies) => engine.append(bodies),
    ...(ledger ? { ledger } : {}),
    liveOutput: {
      // Kept across a crash too (output-so-far.ts), for the card that asks whether it runs again.
      start: (ids) => deps.outputSoFar?.start(ids.cycleId),
      append: (ids, chunk) => {
        commandOutput.append(sessionId, ids, chunk);
        deps.outputSoFar?.append(ids.cycleId, chunk);
      },
      finish: (cycleId) => {
        commandOutput.finish(cycleId);
        deps.outputSoFar?.finish(cycleId);
      },
    },
    checkApproval: (intention, command) => personApprovalForCheck(engine.view(), intention, command),
    roomForCycle: (intention) => roomForCycle(engine.view(), runId, intention.id, deps.limits),
    checkAnswered: (intention, phase, command) => checkAnswered(engine.view(), intention, phase, command),
    detectedTests: (intention) => {
      const discovered = engine.view().runs[runId]?.intent;
      // The same plan the decomposition card showed (an intention that is a command gets none).
      return detectedFallback(intention, discovered?.codebase, discovered?.prompt.targets ?? []);
    },
    testHints: (intention) => checkHintsFor(intention, engine.view().runs[runId]?.intent?.codebase),
  });
  return { workspace, tools, cycles };
}
