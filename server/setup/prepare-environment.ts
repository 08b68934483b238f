import type { EventBody } from "@/server/domain/events/schema";
import { setupOutputId } from "@/server/domain/session/fold-environment";
import { type SetupSource, setupSourceLabel } from "@/server/domain/settings/setup-command";
import type { EgressSettings } from "@/server/domain/vocabulary/egress";
import { commandOutput } from "@/server/events/command-output";
import { sessionDispatch } from "@/server/runtime/session-runtime";
import type { EgressApplied, Sandbox, SandboxProvider } from "@/server/sandbox/types";
import type { DispatchDeps } from "@/server/tools/dispatch";

/** What a session needs to know of its project's environment (built by app-context from the database). */
export interface SessionEnvironment {
  projectId: string;
  egress: EgressSettings;
  /**
   * The setup command; `binding` is null while no person approved this exact text. `source`: where it
   * came from (the card, the repository's file on `defaultBranch`, the lock files), for the reason a
   * skipped setup gives.
   */
  setup: {
    command: string;
    binding: string | null;
    approvedBy: string | null;
    source?: SetupSource;
    defaultBranch?: string;
  } | null;
  /** The setup secrets in the clear, opened only when the setup command runs. */
  openSecrets(): Promise<{ env: Record<string, string>; unreadable: string[] }>;
}

/** A setup.run call's outcome, as the dispatch returns it (the parts used here). */
export interface SetupOutcome {
  status: string;
  output: string;
  exitCode: number | null;
  error: { message: string } | null;
  durationMs: number;
}

const OUTPUT_TAIL = 16 * 1024;

/**
 * A session's sandbox after it is made: the setup phase's network, the setup command (only on a new
 * workspace and only when a person approved that exact command), then the agent phase's network.
 * A failing setup is recorded with its output and the session goes on. The agent phase is applied on
 * every acquire (a re-attached sandbox after a restart too); if it cannot be applied, the sandbox is
 * put in Off, and if even that fails the error stops the run: never more network than asked.
 */
export async function prepareEnvironment(ctx: {
  runId: string;
  sessionId: string;
  fresh: boolean;
  environment: SessionEnvironment;
  sandboxes: Pick<SandboxProvider, "setEgressPhase">;
  append(events: EventBody[]): Promise<void>;
  runSetup(
    command: string,
    binding: string,
    approver: string | null,
    env: Record<string, string>,
  ): Promise<SetupOutcome>;
  /**
   * A gVisor session's setup runs in a runc container of its own (`sandboxSessionId`, whose network
   * the setup phase sets, its connections recorded for this session); the gVisor sandbox itself has
   * no network, so its agent phase is Off whatever is asked.
   */
  gvisorSetup?: { sandboxSessionId: string; problem?: string };
}): Promise<void> {
  const { environment, runId } = ctx;
  const runner = ctx.gvisorSetup ? "runc-for-gvisor" : "sandbox";
  const setupBox = ctx.gvisorSetup?.sandboxSessionId ?? ctx.sessionId;
  // With what it was applied with: a restarted server gives a running sandbox the same back (issue #19).
  const phaseEvent = (applied: EgressApplied): EventBody => ({
    type: "egress-phase-set",
    runId,
    ...applied,
    getHeadOnly: environment.egress[applied.phase].getHeadOnly,
    allowList: environment.egress.allowList,
  });
  const setup = environment.setup;
  const problem = ctx.gvisorSetup?.problem;
  if (ctx.fresh && setup) {
    if (setup.binding && problem) {
      await ctx.append([
        {
          type: "setup-ran",
          runId,
          command: setup.command,
          status: "failed",
          reason: problem,
          exitCode: null,
          output: "",
          durationMs: 0,
          unreadableSecrets: [],
          runner,
        },
      ]);
    } else if (!setup.binding) {
      await ctx.append([
        {
          type: "setup-ran",
          runId,
          command: setup.command,
          status: "skipped",
          reason: `The setup command${setup.source ? ` (${setupSourceLabel(setup.source, setup.defaultBranch ?? "the default branch")})` : ""} waits for a person's approval of this exact text in the project's settings (Network and setup).`,
          exitCode: null,
          output: "",
          durationMs: 0,
          unreadableSecrets: [],
          runner,
        },
      ]);
    } else {
      if (ctx.sandboxes.setEgressPhase)
        await ctx.append([
          phaseEvent(
            await ctx.sandboxes.setEgressPhase(setupBox, "setup", environment.egress, ctx.sessionId),
          ),
        ]);
      await ctx.append([{ type: "setup-started", runId, command: setup.command, runner }]);
      const secrets = await environment.openSecrets();
      const outcome = await ctx.runSetup(setup.command, setup.binding, setup.approvedBy, secrets.env);
      await ctx.append([
        {
          type: "setup-ran",
          runId,
          command: setup.command,
          status: outcome.status === "ok" ? "ok" : "failed",
          reason:
            outcome.status === "ok"
              ? null
              : (outcome.error?.message ?? `The setup command ended ${outcome.status}.`),
          exitCode: outcome.exitCode,
          output:
            outcome.output.length > OUTPUT_TAIL ? `…${outcome.output.slice(-OUTPUT_TAIL)}` : outcome.output,
          durationMs: outcome.durationMs,
          unreadableSecrets: secrets.unreadable,
          runner,
        },
      ]);
    }
  }
  if (ctx.gvisorSetup) {
    const requested = environment.egress.agent.mode;
    await ctx.append([
      phaseEvent({
        phase: "agent",
        requested,
        applied: "off",
        problem:
          requested === "off"
            ? null
            : "A gVisor sandbox has no network on this server (runsc refuses networked containers): the agent phase runs Off.",
      }),
    ]);
    return;
  }
  if (!ctx.sandboxes.setEgressPhase) return;
  let applied: EgressApplied;
  try {
    applied = await ctx.sandboxes.setEgressPhase(ctx.sessionId, "agent", environment.egress);
  } catch (error) {
    const off: EgressSettings = { ...environment.egress, agent: { mode: "off", getHeadOnly: false } };
    applied = {
      ...(await ctx.sandboxes.setEgressPhase(ctx.sessionId, "agent", off)),
      requested: environment.egress.agent.mode,
      problem: `The agent phase's network could not be applied (${error instanceof Error ? error.message : String(error)}): it runs Off.`,
    };
  }
  await ctx.append([phaseEvent(applied)]);
}

/** The setup command works under an intent of its own: the whole workspace (it installs into it). */
export const SETUP_INTENT = { id: "project-setup", ownedScope: ["**"] } as const;

/**
 * The `prepare` callback a SessionWorkspace gets from the engine or the answer runner: setup.run
 * through a ToolDispatch of its own over the sandbox being prepared (the caller's dispatch may be the
 * one waiting for this very sandbox), with the caller's gate policy and the person's bound approval;
 * events through the caller's log.
 */
export function environmentPreparer(ctx: {
  runId: string;
  sessionId: string;
  sandboxes: Pick<SandboxProvider, "setEgressPhase">;
  append(events: EventBody[]): Promise<unknown>;
  policy: DispatchDeps["policy"];
  timeoutMs: number;
}): (
  environment: SessionEnvironment,
  fresh: boolean,
  sandbox: Sandbox,
  gvisorSetup?: { sandboxSessionId: string; problem?: string },
) => Promise<void> {
  return async (environment, fresh, sandbox, gvisorSetup) => {
    const dispatch = sessionDispatch({
      sandbox: async () => sandbox,
      policy: ctx.policy,
      commandTimeoutMs: ctx.timeoutMs,
    });
    // The setup's output goes to the session's live readers like a cycle's (ephemeral; the stored
    // tail is in `setup-ran`), under a key of its own.
    const ids = { runId: ctx.runId, intentionId: SETUP_INTENT.id, cycleId: setupOutputId(ctx.runId) };
    const onOutput = (chunk: string) => commandOutput.append(ctx.sessionId, ids, chunk);
    try {
      await prepareEnvironment({
        runId: ctx.runId,
        sessionId: ctx.sessionId,
        fresh,
        environment,
        sandboxes: ctx.sandboxes,
        append: async (events) => {
          await ctx.append(events);
        },
        runSetup: (command, binding, approver, env) =>
          dispatch.run(
            { tool: "setup.run", input: { command } },
            { activeIntent: SETUP_INTENT, approval: { binding, approver }, env, onOutput },
          ),
        ...(gvisorSetup ? { gvisorSetup } : {}),
      });
    } finally {
      commandOutput.finish(ids.cycleId);
    }
  };
}
