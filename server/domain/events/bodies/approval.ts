import { z } from "zod";
import { CheckpointAnswer, CheckpointProposal } from "@/server/domain/events/checkpoint-schema";
import { PRE_APPROVABLE_CATEGORIES, PreApprovableCategory } from "@/server/domain/policy/checkpoints";
import { ApprovalKind } from "@/server/domain/vocabulary/session";
import { ChildProposal, ToolCallBody } from "./shared";

export const ApprovalRequestedBody = z.object({
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
  /**
   * A command cut off by a server crash (issue #15.7): how long it ran and the last of what it printed
   * before the crash, as far as the server kept it (absent: not such a question, or an older log).
   */
  interruption: z
    .object({
      ranMs: z.number().nonnegative().nullable(),
      /** "ended": still running when the server came back, and ended then; "at-least": ran at least ranMs. */
      ranKind: z.enum(["ended", "at-least"]).nullable(),
      /** The last lines it printed (null: nothing was kept). */
      output: z.string().max(20_000).nullable(),
      /** Everything it printed before the crash, in characters, as far as the server saw. */
      outputChars: z.number().int().nonnegative(),
    })
    .optional(),
  /**
   * kind "command" asked for a contract check outside any cycle (issue #15): before any work (the
   * baseline) or at a parent's integration. Approving lets exactly that check run there; it is never
   * an action of its own. Absent: an action's command (or a check that runs as the next cycle).
   */
  checkPhase: z.enum(["baseline", "integration", "guard"]).optional(),
});

export const ApprovalDecidedBody = z.object({
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
  /**
   * kind "tool", approved: categories the person pre-approved for the rest of this run with this
   * answer ("approve all file changes for this run"). Later moderate calls of them in the same run pass
   * without a card; dangerous tools, protected paths and secrets still ask (decide.ts).
   */
  preApproveRun: z.array(PreApprovableCategory).max(PRE_APPROVABLE_CATEGORIES.length).default([]),
  /**
   * kind "decomposition": the version of the check plan the card listed (server/riva/child-checks.ts).
   * Null (older logs): the approval covers no check command, so each check asks or the policy decides.
   */
  checkPlanVersion: z.number().int().nullable().default(null),
});

/**
 * Seed 004's batch pre-approval for one run, granted from the session bar before (or between) the
 * run's questions. Same effect as `approval-decided`'s `preApproveRun`: later moderate calls of these
 * categories in this run pass without a card; nothing else does.
 */
export const RunPreApprovedBody = z.object({
  type: z.literal("run-pre-approved"),
  runId: z.string(),
  categories: z.array(PreApprovableCategory).min(1).max(PRE_APPROVABLE_CATEGORIES.length),
  grantedBy: z.object({ userId: z.string(), name: z.string() }),
});

/**
 * An approval delegated to a named member (`assignee` null: back to anyone who may approve). Then
 * only that member, or an owner or admin, may answer it.
 */
export const ApprovalAssignedBody = z.object({
  type: z.literal("approval-assigned"),
  runId: z.string(),
  approvalId: z.string(),
  assignee: z.object({ userId: z.string(), name: z.string() }).nullable(),
  assignedBy: z.object({ userId: z.string(), name: z.string() }),
});

/**
 * This family's event types (approval questions, their decisions, assignment and run-wide grants).
 * The union (schema.ts) is every family's tuple; a new type of this family goes here.
 */
export const APPROVAL_EVENTS = [
  ApprovalRequestedBody,
  ApprovalDecidedBody,
  RunPreApprovedBody,
  ApprovalAssignedBody,
] as const;
