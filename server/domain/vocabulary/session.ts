import { z } from "zod";

/** Each vocabulary is defined once: a const list, its zod enum, and the inferred type. */

export const INTENTION_STATUSES = ["PENDING", "ACTIVE", "VERIFIED", "FAILED"] as const;
export const IntentionStatus = z.enum(INTENTION_STATUSES);
export type IntentionStatus = z.infer<typeof IntentionStatus>;

export const JUDGMENTS = ["SUCCESS", "FAILURE", "PARTIAL", "UNCLEAR"] as const;
export const Judgment = z.enum(JUDGMENTS);
export type Judgment = z.infer<typeof Judgment>;

export const ACTION_TYPES = ["COMMAND", "EDIT", "CREATE", "DELETE", "QUERY"] as const;
export const ActionType = z.enum(ACTION_TYPES);
export type ActionType = z.infer<typeof ActionType>;

/**
 * ANSWERED ends a read-only answer (Chat mode, or a question in Agent mode) that came: an answer is
 * not a verification, so it is never VERIFIED. An answer that did not come (no model reply, the
 * request limit) is FAILED. Runs stored before ANSWERED existed keep their VERIFIED.
 */
export const RUN_STATUSES = ["RUNNING", "VERIFIED", "ANSWERED", "FAILED", "STOPPED"] as const;
export const RunStatus = z.enum(RUN_STATUSES);
export type RunStatus = z.infer<typeof RunStatus>;
export const FINAL_RUN_STATUSES = [
  "VERIFIED",
  "ANSWERED",
  "FAILED",
  "STOPPED",
] as const satisfies readonly RunStatus[];
export const FinalRunStatus = z.enum(FINAL_RUN_STATUSES);
export type FinalRunStatus = z.infer<typeof FinalRunStatus>;

export const APPROVAL_STATUSES = ["PENDING", "APPROVED", "REJECTED"] as const;
export const ApprovalStatus = z.enum(APPROVAL_STATUSES);
export type ApprovalStatus = z.infer<typeof ApprovalStatus>;

/**
 * "budget" is the whole run's; "intention-budget" one intention's share (see server/riva/budgets.ts).
 * "command" is a shell command (its text in `command`); "tool" any other tool call that asks (a write,
 * an edit, a delete, a git change: the call in `call`).
 */
export const APPROVAL_KINDS = [
  "decomposition",
  "command",
  "tool",
  "budget",
  "judgment",
  "integration",
  "reflection",
  "intention-budget",
] as const;
export const ApprovalKind = z.enum(APPROVAL_KINDS);
export type ApprovalKind = z.infer<typeof ApprovalKind>;

export const USER_MODES = ["agent", "chat"] as const;
export const UserMode = z.enum(USER_MODES);
export type UserMode = z.infer<typeof UserMode>;

/** The user's reasoning switch (seed 001 §2.2). Only the person's click sets it; runs record it. */
export const REASONING_SWITCHES = ["on", "off"] as const;
export const ReasoningSwitch = z.enum(REASONING_SWITCHES);
export type ReasoningSwitch = z.infer<typeof ReasoningSwitch>;

/**
 * How a run's message was handled: "answer" explores with read-only tools and replies in text (every
 * Chat-mode message, and an Agent-mode message the router reads as a pure question); "loop" works it
 * as an intention tree.
 */
export const RUN_ROUTES = ["answer", "loop"] as const;
export const RunRoute = z.enum(RUN_ROUTES);
export type RunRoute = z.infer<typeof RunRoute>;

export const MESSAGE_ROLES = ["user", "agent", "system"] as const;
export const MessageRole = z.enum(MESSAGE_ROLES);
export type MessageRole = z.infer<typeof MessageRole>;

/**
 * What a VERIFIED node rests on (issue #15), defined once and shown everywhere (node, replay, trace
 * records, dashboard):
 * - "red-to-green": a check that failed at the baseline, before any work, passed after it, run exactly
 *   as bound (the strongest kind);
 * - "ran-as-requested": the intention is itself a command ("run `make`"), and that exact command
 *   exited 0;
 * - "green-after-no-baseline": a check that is not safe to run twice (or could not run before the
 *   work) passed after it: weaker, nothing shows it was red first;
 * - "accepted-by-person": a named person explicitly accepted the work as verified.
 * A check that was already green before any work is none of these: it is not evidence of the work.
 */
export const EVIDENCE_KINDS = [
  "red-to-green",
  "ran-as-requested",
  "green-after-no-baseline",
  "accepted-by-person",
] as const;
export const EvidenceKind = z.enum(EVIDENCE_KINDS);
export type EvidenceKind = z.infer<typeof EvidenceKind>;

/** How each kind reads on a node, in the replay and on the dashboard. */
export const EVIDENCE_LABELS: Record<EvidenceKind, string> = {
  "red-to-green": "red → green",
  "ran-as-requested": "ran as requested",
  "green-after-no-baseline": "green after, no baseline (weaker)",
  "accepted-by-person": "accepted by a person",
};

/** Weakest last: a parent's evidence is the weakest of its children's. */
export const EVIDENCE_STRENGTH: readonly EvidenceKind[] = [
  "red-to-green",
  "ran-as-requested",
  "accepted-by-person",
  "green-after-no-baseline",
];
