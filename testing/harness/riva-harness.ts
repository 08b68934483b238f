import type { CheckpointAnswerInput } from "@/server/domain/events/checkpoint-schema";
import type { ChildProposalInput, StoredEvent } from "@/server/domain/events/schema";
import { CheckpointPolicy, type CheckpointPolicyInput } from "@/server/domain/policy/checkpoints";
import { emptySessionView, foldEvents } from "@/server/domain/session/fold";
import { DEFAULT_LIMITS, type RivaLimits, type RunBudget } from "@/server/domain/session/limits";
import type { ApprovalView, SessionView } from "@/server/domain/session/view";
import { MemoryEventLog } from "@/server/events/log";
import type { RunTiers } from "@/server/model/tiers/run-tiers";
import type { AgentModel } from "@/server/model/types";
import type { SandboxProvider } from "@/server/sandbox/types";
import { runningRunsOfLog, testOrchestrator } from "./orchestrator-deps";

export type Answer =
  | {
      decision: "approved";
      children?: ChildProposalInput[];
      command?: string;
      answer?: CheckpointAnswerInput;
    }
  | { decision: "rejected"; reason: string; answer?: CheckpointAnswerInput };

const SESSION = "session-1";
const MAX_TICKS = 20_000;

/**
 * Runs one task through the real orchestrator and RIVA engine over an in-memory log, answering every
 * approval with `answer` like a person would. Throws if the run has not ended after MAX_TICKS turns of
 * the event loop, so a test of termination cannot hang.
 */
export async function runTask(options: {
  task: string;
  model: AgentModel;
  sandboxes: SandboxProvider;
  limits?: Partial<RivaLimits>;
  answer?: (approval: ApprovalView, view: SessionView) => Answer;
  clock?: () => number;
  /** The project's checkpoint policy; by default commands never ask, so tests script only what they test. */
  checkpoints?: CheckpointPolicyInput;
  budget?: RunBudget;
  /** Model tiers for the run (tier 0's model then answers first). */
  tiers?: RunTiers;
  /**
   * Restarts (issue #15): the server dies after this many appends of its life, one entry per life —
   * that batch lands, then nothing of that server ever runs again (like `kill -9`), and a new server
   * over the same log resumes the run. Absent or empty: no restart.
   */
  crashAfterAppends?: readonly number[];
}): Promise<{
  view: SessionView;
  events: StoredEvent[];
  runId: string;
  log: MemoryEventLog;
  restarts: number;
}> {
  const clock = options.clock ?? Date.now;
  const log = new MemoryEventLog(clock);
  const crashes = [...(options.crashAfterAppends ?? [])];
  let server = startServer(log, options, crashes.shift() ?? null);
  let restarts = 0;
  const { runId } = await Promise.race([
    server.orchestrator.startRun({ sessionId: SESSION, task: options.task, mode: "agent", actor: ADA }),
    server.life.died.then(() => ({ runId: null as string | null })),
  ]).then(async (started) => {
    if (started.runId !== null) return { runId: started.runId };
    // Died while starting: the run is in the log if its run-started landed.
    const id = Object.keys(foldEvents(await log.read(SESSION)).runs)[0];
    if (!id) throw new Error("the server died before the run was recorded");
    return { runId: id };
  });
  const answer = options.answer ?? ((): Answer => ({ decision: "approved" }));
  for (let tick = 0; tick < MAX_TICKS; tick++) {
    await new Promise((resolve) => setImmediate(resolve));
    if (server.life.dead) {
      server = startServer(log, options, crashes.shift() ?? null);
      restarts += 1;
      await Promise.race([server.orchestrator.resumeInterrupted(), server.life.died]);
      continue;
    }
    const view = foldEvents(await log.read(SESSION), emptySessionView());
    if (view.runs[runId]?.status !== "RUNNING") {
      await Promise.race([server.orchestrator.idle(), server.life.died]);
      if (server.life.dead) continue;
      const events = await log.read(SESSION);
      return { view: foldEvents(events), events, runId, log, restarts };
    }
    const pending = Object.values(view.approvals).find((approval) => approval.status === "PENDING");
    if (pending) {
      const reply = answer(pending, view);
      await Promise.race([
        server.orchestrator.decide({
          sessionId: SESSION,
          approvalId: pending.id,
          decision: reply.decision,
          reason: reply.decision === "rejected" ? reply.reason : null,
          children:
            reply.decision === "approved" && pending.kind === "decomposition" ? reply.children : undefined,
          command: reply.decision === "approved" && pending.kind === "command" ? reply.command : undefined,
          answer: reply.answer,
          actor: ADA,
        }),
        server.life.died,
      ]);
    }
  }
  throw new Error(`run did not end within ${MAX_TICKS} ticks`);
}

/** One server's life over the shared log: after `crashAfter` appends it is dead and never acts again. */
function lifeOf(log: MemoryEventLog, crashAfter: number | null) {
  let appends = 0;
  let die: () => void = () => undefined;
  const life = {
    dead: false,
    /** Resolves when the server dies (never, without a crash point). */
    died: new Promise<void>((resolve) => {
      die = resolve;
    }),
    log: {
      read: (sessionId: string, afterSeq?: number, limit?: number) =>
        life.dead ? new Promise<never>(() => undefined) : log.read(sessionId, afterSeq, limit),
      append: async (...args: Parameters<MemoryEventLog["append"]>) => {
        if (life.dead) return new Promise<never>(() => undefined);
        const stored = await log.append(...args);
        appends += 1;
        if (crashAfter !== null && appends >= crashAfter) {
          life.dead = true;
          die();
          return new Promise<never>(() => undefined);
        }
        return stored;
      },
    },
  };
  return life;
}

function startServer(log: MemoryEventLog, options: Parameters<typeof runTask>[0], crashAfter: number | null) {
  const life = lifeOf(log, crashAfter);
  const orchestrator = testOrchestrator({
    log: life.log,
    model: options.model,
    sandboxes: options.sandboxes,
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    clock: options.clock ?? Date.now,
    commandTimeoutMs: 1_000,
    sandboxImage: "fake",
    budget: options.budget ?? null,
    priceOf: (call) => (call.tokensIn + call.tokensOut) / 1_000,
    checkpointsOf: async () => CheckpointPolicy.parse(options.checkpoints ?? { commands: "never-ask" }),
    // Retries are part of what is tested; their waiting is not.
    sleep: async () => undefined,
    ...(options.tiers ? { tiersForRun: async () => options.tiers ?? null } : {}),
    runningRuns: runningRunsOfLog(log, SESSION),
  });
  return { orchestrator, life };
}

const ADA = { userId: "u-ada", name: "Ada" };
