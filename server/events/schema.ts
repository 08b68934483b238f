import { z } from "zod";
import { Criterion, CriterionResult } from "@/server/contract/criteria";
import { TraceRecordedBody } from "@/server/governance/ledger/trace-schema";
import { DiscoveredIntent } from "@/server/riva/discovery/discovered-intent";
import { BudgetShare, CheckpointAnswer, CheckpointProposal } from "./checkpoint-schema";
import { ContextCompressedBody, TierEscalatedBody, TiersConfiguredBody } from "./tier-schema";
import {
  ActionType,
  ApprovalKind,
  FinalRunStatus,
  IntentionStatus,
  Judgment,
  MessageRole,
  UserMode,
} from "./vocabulary";

/**
 * The one event union. Every change to a session is one of these, appended to the session's log
 * with a sequence number (see `StoredEvent`). Server projections, the live view and replay all fold
 * the same events, so they cannot disagree.
 *
 * Ids: `sessionId` is implied by the log the event lives in; `runId` names one task given to the
 * agent; `intentionId` a node of the intention tree; `cycleId` one thought→action→result→judgment
 * attempt; `approvalId` one question waiting for a person.
 */

const text = z.string().max(200_000);

export const ChildProposal = z.object({
  what: z.string().min(1).max(2_000),
  acceptance: z.string().max(2_000),
});
export type ChildProposal = z.infer<typeof ChildProposal>;

/** What the command gate decided before an action ran: by policy, or the person who approved it. */
export const GateRecord = z.object({
  decision: z.enum(["approve", "deny", "ask"]),
  reason: z.string().max(2_000),
});
export type GateRecord = z.infer<typeof GateRecord>;

export const Action = z.object({
  type: ActionType,
  content: text,
  target: z.string().nullable().default(null),
});
export type Action = z.infer<typeof Action>;

export const EventBody = z.discriminatedUnion("type", [
  /** What a cycle wrote, as Agent Trace records (the trace ledger, seed 003). */
  TraceRecordedBody,
  /** Model tiers of the run, an intention's escalation, a compressed request (see tier-schema.ts). */
  TiersConfiguredBody,
  TierEscalatedBody,
  ContextCompressedBody,
  /** A chat message from the user, the agent or the system (errors, notices). */
  z.object({
    type: z.literal("message-posted"),
    messageId: z.string(),
    runId: z.string().nullable(),
    role: MessageRole,
    text,
  }),
  /** A task handed to the agent; `model` records which model answered and whether it is offline. */
  z.object({
    type: z.literal("run-started"),
    runId: z.string(),
    task: text,
    mode: UserMode,
    /** `provider` (openai, anthropic, openai-compatible) since model settings; never the API key. */
    model: z.object({
      id: z.string(),
      label: z.string(),
      offline: z.boolean(),
      provider: z.string().optional(),
    }),
    /** The user who gave the task (null in logs written before this was recorded). */
    startedBy: z.string().nullable().default(null),
  }),
  /** Intent discovery: what was asked, what the workspace is, what earlier sessions taught. */
  z.object({
    type: z.literal("intent-discovered"),
    runId: z.string(),
    intent: DiscoveredIntent,
  }),
  /** The container this session's tools run in is ready. */
  z.object({
    type: z.literal("sandbox-ready"),
    runId: z.string(),
    containerName: z.string(),
    image: z.string(),
    reused: z.boolean(),
    durationMs: z.number().nonnegative(),
  }),
  z.object({
    type: z.literal("intention-created"),
    runId: z.string(),
    intentionId: z.string(),
    parentId: z.string().nullable(),
    what: text,
    acceptance: text,
    depth: z.number().int().nonnegative(),
    position: z.number().int().nonnegative(),
  }),
  /** `reason` explains a FAILED status (which child, which limit) or a VERIFIED one (which check). */
  z.object({
    type: z.literal("intention-status-changed"),
    runId: z.string(),
    intentionId: z.string(),
    status: IntentionStatus,
    reason: z.string().nullable(),
  }),
  /** A decision point of the loop, recorded with the rule that made it, so the log explains the run. */
  z.object({
    type: z.literal("decision-made"),
    runId: z.string(),
    intentionId: z.string(),
    /** verify-directly / decompose: how the intention is worked; retry: another cycle after a miss. */
    decision: z.enum(["verify-directly", "decompose", "retry"]),
    reason: z.string(),
  }),
  /** The intention's contract: the criteria its acceptance names, each checked in the sandbox. */
  z.object({
    type: z.literal("contract-built"),
    runId: z.string(),
    intentionId: z.string(),
    criteria: z.array(Criterion).max(20),
  }),
  /** Criteria checked after a successful action (`cycleId`) or at integration of a parent (`cycleId` null). */
  z.object({
    type: z.literal("criteria-checked"),
    runId: z.string(),
    intentionId: z.string(),
    cycleId: z.string().nullable(),
    results: z.array(CriterionResult).max(20),
  }),
  z.object({
    type: z.literal("approval-requested"),
    runId: z.string(),
    approvalId: z.string(),
    intentionId: z.string(),
    kind: ApprovalKind,
    /** kind "decomposition": the proposed children. */
    children: z.array(ChildProposal).default([]),
    thought: z.string(),
    /** kind "command": the command that will run, exactly, once approved (or as edited). */
    command: z.string().max(20_000).nullable().default(null),
    /** SHA-256 of what will run: the approval is bound to it. */
    binding: z.string().nullable().default(null),
    /** Seed 004's dangerous class: the person confirms explicitly. */
    confirm: z.boolean().default(false),
    /** Why the gate asked. */
    reason: z.string().max(2_000).default(""),
    /** Judgment questions and intention budgets: what the auto checkpoint proposes. */
    proposal: CheckpointProposal.nullable().default(null),
  }),
  z.object({
    type: z.literal("approval-decided"),
    runId: z.string(),
    approvalId: z.string(),
    decision: z.enum(["approved", "rejected"]),
    decidedBy: z.object({ userId: z.string(), name: z.string() }),
    reason: z.string().nullable(),
    /** kind "command": the command as the person edited it before approving (null: unchanged). */
    command: z.string().max(20_000).nullable().default(null),
    /** Judgment questions and intention budgets: the person's verdict or choice. */
    answer: CheckpointAnswer.nullable().default(null),
  }),
  /** A parent's remaining budget shared among its new children (equal split), with the rule said. */
  z.object({
    type: z.literal("budget-split"),
    runId: z.string(),
    intentionId: z.string(),
    rule: z.string().max(2_000),
    shares: z.array(BudgetShare).max(5),
  }),
  /**
   * An approval delegated to a named member (`assignee` null: back to anyone who may approve). Then
   * only that member, or an owner or admin, may answer it.
   */
  z.object({
    type: z.literal("approval-assigned"),
    runId: z.string(),
    approvalId: z.string(),
    assignee: z.object({ userId: z.string(), name: z.string() }).nullable(),
    assignedBy: z.object({ userId: z.string(), name: z.string() }),
  }),
  /** A cycle begins: the thought and the concrete action it is about to run. */
  z.object({
    type: z.literal("cycle-started"),
    runId: z.string(),
    intentionId: z.string(),
    cycleId: z.string(),
    index: z.number().int().nonnegative(),
    thought: text,
    action: Action,
    /** The command approval this cycle carries out, if a person was asked. */
    approvalId: z.string().nullable().default(null),
    gate: GateRecord.nullable().default(null),
  }),
  /** What the action produced. `output` is capped; `error` is set when the action could not run at all. */
  z.object({
    type: z.literal("cycle-result"),
    runId: z.string(),
    intentionId: z.string(),
    cycleId: z.string(),
    exitCode: z.number().int().nullable(),
    output: text,
    timedOut: z.boolean(),
    error: z.string().nullable(),
    durationMs: z.number().nonnegative(),
  }),
  z.object({
    type: z.literal("cycle-judged"),
    runId: z.string(),
    intentionId: z.string(),
    cycleId: z.string(),
    judgment: Judgment,
    judgedBy: z.string(),
    reason: z.string(),
  }),
  z.object({
    type: z.literal("cycle-reflected"),
    runId: z.string(),
    intentionId: z.string(),
    cycleId: z.string(),
    reflection: text,
  }),
  /**
   * How the session's workspace differs from where the session started, after a cycle that changed
   * files: the replay shows the files as they were at any point. The patch is capped (whole files).
   */
  z.object({
    type: z.literal("workspace-changed"),
    runId: z.string(),
    intentionId: z.string(),
    cycleId: z.string(),
    base: z.string(),
    files: z
      .array(
        z.object({
          path: z.string(),
          added: z.number().int().nullable(),
          removed: z.number().int().nullable(),
        }),
      )
      .max(2_000),
    patch: z.string().max(200_000),
    truncated: z.boolean(),
  }),
  /** One model request: which stage asked, which model answered, what it cost in tokens and time. */
  z.object({
    type: z.literal("llm-called"),
    runId: z.string(),
    intentionId: z.string().nullable(),
    stage: z.string(),
    modelId: z.string(),
    offline: z.boolean(),
    tokensIn: z.number().int().nonnegative(),
    tokensOut: z.number().int().nonnegative(),
    latencyMs: z.number().nonnegative(),
    error: z.string().nullable(),
    /** Tokens × the configured price of this model, in US dollars; null when the model has no price. */
    costUsd: z.number().nonnegative().nullable().default(null),
  }),
  /** The session's work was committed and stored in the project as the session's branch. */
  z.object({
    type: z.literal("work-saved"),
    branch: z.string(),
    commit: z.string(),
    files: z.array(z.string()).max(10_000),
    by: z.string(),
    /** A person saved despite secrets found in the staged changes. */
    secretsOverridden: z.boolean(),
  }),
  /** The session's branch was merged into the project's default branch. */
  z.object({
    type: z.literal("work-merged"),
    branch: z.string(),
    into: z.string(),
    commit: z.string(),
    by: z.string(),
  }),
  /** The session's branch and sandbox were thrown away. */
  z.object({ type: z.literal("work-discarded"), branch: z.string(), by: z.string() }),
  /** A person opened the session's terminal (a shell in its sandbox); its output is not logged. */
  z.object({
    type: z.literal("terminal-opened"),
    terminalId: z.string(),
    by: z.object({ userId: z.string(), name: z.string() }),
  }),
  /** Someone typed in the terminal (at most one event per person per minute; what was typed is not kept). */
  z.object({
    type: z.literal("terminal-typed"),
    terminalId: z.string(),
    by: z.object({ userId: z.string(), name: z.string() }),
  }),
  /** The terminal ended: closed by a person (`by`), left idle, or its shell exited or was lost. */
  z.object({
    type: z.literal("terminal-closed"),
    terminalId: z.string(),
    reason: z.enum(["closed", "idle", "exited", "shutdown"]),
    by: z.object({ userId: z.string(), name: z.string() }).nullable().default(null),
    exitCode: z.number().int().nullable().default(null),
  }),
  z.object({
    type: z.literal("run-ended"),
    runId: z.string(),
    status: FinalRunStatus,
    reason: z.string(),
  }),
]);
/** An event as read back (defaults applied). */
export type EventBody = z.infer<typeof EventBody>;
/** An event as written: optional fields may be left out, the log fills their defaults when it parses. */
export type EventInput = z.input<typeof EventBody>;
export type EventType = EventBody["type"];
export type EventOf<T extends EventType> = Extract<EventBody, { type: T }>;

/** An event as stored: the body plus its place in the session's log. */
export const StoredEvent = z.object({
  seq: z.number().int().positive(),
  at: z.string(),
  body: EventBody,
});
export type StoredEvent = z.infer<typeof StoredEvent>;

/** The run id an event belongs to, if any (indexed in the table for per-run queries). */
export function runIdOf(body: EventBody): string | null {
  return "runId" in body ? body.runId : null;
}
