import { z } from "zod";
import { Criterion, CriterionResult } from "@/server/domain/contract/criteria";
import { BudgetShare } from "@/server/domain/events/checkpoint-schema";
import { EvidenceKind, IntentionStatus } from "@/server/domain/vocabulary/session";
import { text } from "./shared";

export const IntentionCreatedBody = z.object({
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
});

/**
 * The model chose a project intent with `select_active_intent` while working an intention: from then
 * on the run's writes must stay inside that intent's owned_scope (unless the intention has a scope a
 * person approved, which is narrower). `ownedScope` is as the intents file said when it was selected.
 */
export const IntentSelectedBody = z.object({
  type: z.literal("intent-selected"),
  runId: z.string(),
  intentionId: z.string(),
  intentId: z.string().max(200),
  ownedScope: z.array(z.string().max(300)).max(50),
});

/** `reason` explains a FAILED status (which child, which limit) or a VERIFIED one (which check). */
export const IntentionStatusChangedBody = z.object({
  type: z.literal("intention-status-changed"),
  runId: z.string(),
  intentionId: z.string(),
  status: IntentionStatus,
  reason: z.string().nullable(),
  /** status VERIFIED (issue #15): the kind of evidence it rests on; absent in logs from before it. */
  evidence: EvidenceKind.optional(),
  /** evidence "accepted-by-person": who accepted it. */
  acceptedBy: z.object({ userId: z.string(), name: z.string() }).optional(),
});

/** A decision point of the loop, recorded with the rule that made it, so the log explains the run. */
export const DecisionMadeBody = z.object({
  type: z.literal("decision-made"),
  runId: z.string(),
  intentionId: z.string(),
  /** verify-directly / decompose: how the intention is worked; retry: another cycle after a miss. */
  decision: z.enum(["verify-directly", "decompose", "retry"]),
  reason: z.string(),
});

/** The intention's contract: the criteria its acceptance names, each checked in the sandbox. */
export const ContractBuiltBody = z.object({
  type: z.literal("contract-built"),
  runId: z.string(),
  intentionId: z.string(),
  criteria: z.array(Criterion).max(20),
  /**
   * Who wrote the checks: parsed from the acceptance sentence, proposed by the model, or extended by
   * full mode's Chaos role with its adversarial test (the earlier checks are kept), or "request": read
   * from the intention's own words (itself a command, "run `make`", is checked by exactly that command).
   */
  source: z.enum(["acceptance", "model", "chaos", "request", "detected-tests"]).default("acceptance"),
  /** Proposed checks left out and why (malformed, or a command that would need a person's approval). */
  dropped: z.array(z.string().max(1_000)).max(10).default([]),
  /**
   * Test first: a test the model wrote with the contract, written to the workspace as the intention's
   * first cycle (through the approval gate) before any work; its check is in `criteria`.
   */
  generatedTest: z
    .object({ path: z.string().max(300), content: z.string().max(20_000) })
    .nullable()
    .default(null),
  /**
   * Issue #15: the indexes of `criteria` that are the project's detected tests, added as a fallback
   * (nothing checkable named, or every named check already green before any work). Such a check
   * counts only when it was red at the baseline. Absent in logs from before it existed: none.
   */
  detectedTests: z.array(z.number().int().nonnegative()).max(20).optional(),
});

/** Criteria checked after a successful action (`cycleId`) or at integration of a parent (`cycleId` null). */
export const CriteriaCheckedBody = z.object({
  type: z.literal("criteria-checked"),
  runId: z.string(),
  intentionId: z.string(),
  cycleId: z.string().nullable(),
  results: z.array(CriterionResult).max(20),
});

/** A parent's remaining budget shared among its new children (equal split), with the rule said. */
export const BudgetSplitBody = z.object({
  type: z.literal("budget-split"),
  runId: z.string(),
  intentionId: z.string(),
  rule: z.string().max(2_000),
  shares: z.array(BudgetShare).max(5),
});

/**
 * This family's event types (the intention tree: nodes, statuses, decisions, contracts, checks, budgets).
 * The union (schema.ts) is every family's tuple; a new type of this family goes here.
 */
export const INTENTION_EVENTS = [
  IntentionCreatedBody,
  IntentSelectedBody,
  IntentionStatusChangedBody,
  DecisionMadeBody,
  ContractBuiltBody,
  CriteriaCheckedBody,
  BudgetSplitBody,
] as const;
