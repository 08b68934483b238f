import type { CheckpointAnswerInput } from "@/server/events/checkpoint-schema";
import { type ApprovalView, emptySessionView, foldEvents, type SessionView } from "@/server/events/fold";
import { MemoryEventLog } from "@/server/events/log";
import type { ChildProposalInput, StoredEvent } from "@/server/events/schema";
import type { AgentModel } from "@/server/model/types";
import { Orchestrator } from "@/server/orchestrator/orchestrator";
import { CheckpointPolicy, type CheckpointPolicyInput } from "@/server/policy/checkpoints";
import { DEFAULT_LIMITS, type RivaLimits, type RunBudget } from "@/server/riva/limits";
import type { RunTiers } from "@/server/riva/ports";
import type { SandboxProvider } from "@/server/sandbox/types";
import { silentLogger } from "./fakes";

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
}): Promise<{ view: SessionView; events: StoredEvent[]; runId: string; log: MemoryEventLog }> {
  const clock = options.clock ?? Date.now;
  const log = new MemoryEventLog(clock);
  const orchestrator = new Orchestrator({
    log,
    model: options.model,
    sandboxes: options.sandboxes,
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    clock,
    commandTimeoutMs: 1_000,
    sandboxImage: "fake",
    logger: silentLogger,
    workspaceOf: async () => ({ repoPath: "/nowhere.git", branch: "b" }),
    runningRuns: async () => [],
    budget: options.budget ?? null,
    priceOf: (call) => (call.tokensIn + call.tokensOut) / 1_000,
    checkpointsOf: async () => CheckpointPolicy.parse(options.checkpoints ?? { commands: "never-ask" }),
    // Retries are part of what is tested; their waiting is not.
    sleep: async () => undefined,
    ...(options.tiers ? { tiersForRun: async () => options.tiers ?? null } : {}),
  });
  const { runId } = await orchestrator.startRun({
    sessionId: SESSION,
    task: options.task,
    mode: "agent",
    actor: ADA,
  });
  const answer = options.answer ?? ((): Answer => ({ decision: "approved" }));
  for (let tick = 0; tick < MAX_TICKS; tick++) {
    await new Promise((resolve) => setImmediate(resolve));
    const view = foldEvents(await log.read(SESSION), emptySessionView());
    if (view.runs[runId]?.status !== "RUNNING") {
      await orchestrator.idle();
      const events = await log.read(SESSION);
      return { view: foldEvents(events), events, runId, log };
    }
    const pending = Object.values(view.approvals).find((approval) => approval.status === "PENDING");
    if (pending) {
      const reply = answer(pending, view);
      await orchestrator.decide({
        sessionId: SESSION,
        approvalId: pending.id,
        decision: reply.decision,
        reason: reply.decision === "rejected" ? reply.reason : null,
        children:
          reply.decision === "approved" && pending.kind === "decomposition" ? reply.children : undefined,
        command: reply.decision === "approved" && pending.kind === "command" ? reply.command : undefined,
        answer: reply.answer,
        actor: ADA,
      });
    }
  }
  throw new Error(`run did not end within ${MAX_TICKS} ticks`);
}

const ADA = { userId: "u-ada", name: "Ada" };
