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
  ReasoningSwitch,
  RunRoute,
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

/**
 * `ownedScope`: owned_scope globs proposed for the child (relative to /workspace). A person approving
 * the decomposition approves them with the child's acceptance check (see `intention-created`).
 */
export const ChildProposal = z.object({
  what: z.string().min(1).max(2_000),
  acceptance: z.string().max(2_000),
  ownedScope: z.array(z.string().min(1).max(300)).max(20).default([]),
});
export type ChildProposal = z.infer<typeof ChildProposal>;
export type ChildProposalInput = z.input<typeof ChildProposal>;

/** What the command gate decided before an action ran: by policy, or the person who approved it. */
export const GateRecord = z.object({
  decision: z.enum(["approve", "deny", "ask"]),
  reason: z.string().max(2_000),
});
export type GateRecord = z.infer<typeof GateRecord>;

/**
 * A tool call as recorded: the registry's tool name and its input (a JSON object). The dispatch parses
 * the input with the tool's schema before anything runs; this shape only keeps it readable in the log.
 */
export const ToolCallBody = z.object({
  tool: z.string().min(1).max(100),
  input: z.record(z.string(), z.unknown()),
});
export type ToolCallBody = z.infer<typeof ToolCallBody>;

/**
 * A cycle's action (seed 000's Action types). `content` is what a reader sees (the command, the
 * file's new content, the search/replace); `tool` and `input` (long strings capped) keep the call
 * itself for replay and export. Logs written before tool calls read as shell commands (null).
 */
export const Action = z.object({
  type: ActionType,
  content: text,
  target: z.string().nullable().default(null),
  tool: z.string().max(100).nullable().default(null),
  input: z.record(z.string(), z.unknown()).nullable().default(null),
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
    /** The person's reasoning switch when they sent it ("off" in logs from before the switch existed). */
    reasoning: ReasoningSwitch.default("off"),
  }),
  /**
   * How the run's message is handled and why (the router's classification). Never changes the run's
   * mode: an Agent-mode question answered read-only is still recorded and requested as Agent mode.
   */
  z.object({
    type: z.literal("run-routed"),
    runId: z.string(),
    route: RunRoute,
    /** The router's request kind (question, fix, run, …). */
    kind: z.string().max(40),
    reason: z.string().max(2_000),
  }),
  /** A read-only tool call made while answering (the answer path), shown under the answer. */
  z.object({
    type: z.literal("answer-tool-called"),
    runId: z.string(),
    callId: z.string(),
    tool: z.string().max(80),
    /** The path or pattern it looked at, for the person reading the answer. */
    target: z.string().max(500),
    status: z.enum(["ok", "failed", "denied", "ask", "invalid", "refused", "capped"]),
    /** A short excerpt of what it returned or why it failed (the model saw the whole result). */
    summary: z.string().max(2_000),
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
    /** A decomposition child's owned_scope globs, as proposed or as the person edited them. */
    ownedScope: z.array(z.string().max(300)).max(20).default([]),
    /**
     * Set when a person approved the decomposition that made this child: its scope and acceptance
     * check are approved with it, bound (SHA-256, see approved-scopes.ts) to exactly this child's
     * id, what, acceptance and scope. Writes inside it then pass while its check is not red.
     */
    scopeApproval: z
      .object({ approvalId: z.string(), binding: z.string(), approvedBy: z.string() })
      .nullable()
      .default(null),
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
    /** kind "tool": the exact call that runs once approved (its binding is `binding`). */
    call: ToolCallBody.nullable().default(null),
    /**
     * kind "tool": what the person should see besides the call — the file's content before a write or
     * an edit (null: the file does not exist yet), the staged diff of a commit, the file to delete.
     */
    preview: z.string().max(200_000).nullable().default(null),
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
    /** kind "tool": the call as the person edited it before approving (null: unchanged). */
    call: ToolCallBody.nullable().default(null),
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
  /**
   * A read-only tool call the model made inside its act turn, before choosing the cycle's action
   * (seed 001's micro-step): which tool, its input in short, how it went and what it returned (capped).
   * `cycleIndex` is the index of the cycle the reads led to.
   */
  z.object({
    type: z.literal("tool-called"),
    runId: z.string(),
    intentionId: z.string(),
    cycleIndex: z.number().int().nonnegative(),
    tool: z.string().max(100),
    input: z.string().max(2_000),
    status: z.enum(["ok", "failed", "denied", "ask", "invalid"]),
    output: z.string().max(20_000),
    durationMs: z.number().nonnegative(),
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
    /** null (with intentionId) when a person saved a file in the editor: no run wrote it. */
    runId: z.string().nullable(),
    intentionId: z.string().nullable(),
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
    /** Seed 001 §9.1: the user's mode and reasoning switch the request was built for (null: not recorded). */
    mode: UserMode.nullable().default(null),
    reasoning: ReasoningSwitch.nullable().default(null),
    /** The workspace tools offered to the model (vocabulary names such as `fs.read`). */
    tools: z.array(z.string().max(80)).max(40).default([]),
    toolCount: z.number().int().nonnegative().default(0),
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
  /**
   * A person saved a file in the session's editor (through the tool dispatch, like the agent's writes):
   * who, which file, the hash they opened (null for a new file) and the hash written. The lines are in
   * the `trace-recorded` event that follows, with contributor `human`; `editId` ties the two.
   */
  z.object({
    type: z.literal("file-edited"),
    editId: z.string(),
    path: z.string().max(4_096),
    by: z.object({ userId: z.string(), name: z.string() }),
    baseHash: z.string().nullable(),
    hash: z.string(),
    bytes: z.number().int().nonnegative(),
    /** The reason of a protected path or a secret the person confirmed, or null when nothing asked. */
    confirmed: z.string().max(2_000).nullable(),
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
