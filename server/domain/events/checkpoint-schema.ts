import { z } from "zod";
import { Judgment } from "@/server/domain/vocabulary/session";

/**
 * What the auto checkpoint proposes when a project sends one of seed 000's judgment questions to a
 * person (judge_action, verify_integration, review_reflection), or when an intention spends its share
 * of the budget; and the person's answer. Carried by `approval-requested` / `approval-decided`.
 */

const text = z.string().max(200_000);
export const IntegrationStatus = z.enum(["VERIFIED", "FAILED"]);
export type IntegrationStatus = z.infer<typeof IntegrationStatus>;

/** A token and money allowance; null in a dimension means unlimited in it. */
export const Allowance = z.object({
  maxCostUsd: z.number().nonnegative().nullable(),
  maxTokens: z.number().int().nonnegative().nullable(),
});
export type Allowance = z.infer<typeof Allowance>;

export const CheckpointProposal = z.discriminatedUnion("question", [
  z.object({
    question: z.literal("judge_action"),
    cycleId: z.string(),
    judgment: Judgment,
    reason: z.string().max(2_000),
    /** The result excerpt (and contract checks) the judgment rests on. */
    evidence: text,
  }),
  z.object({
    question: z.literal("verify_integration"),
    status: IntegrationStatus,
    reason: z.string().max(2_000),
    evidence: text,
  }),
  z.object({
    question: z.literal("review_reflection"),
    cycleId: z.string(),
    judgment: Judgment,
    reflection: text,
  }),
  z.object({
    question: z.literal("intention_budget"),
    /** The intention's budget (its share plus grants) and what it and its subtree have spent. */
    budget: Allowance,
    spent: z.object({ costUsd: z.number().nonnegative(), tokens: z.number().int().nonnegative() }),
  }),
]);
export type CheckpointProposal = z.infer<typeof CheckpointProposal>;

export const BUDGET_CHOICES = ["grant", "decompose", "stop"] as const;
export const BudgetChoice = z.enum(BUDGET_CHOICES);
export type BudgetChoice = z.infer<typeof BudgetChoice>;

export const CheckpointAnswer = z.discriminatedUnion("question", [
  z.object({ question: z.literal("judge_action"), judgment: Judgment }),
  z.object({ question: z.literal("verify_integration"), status: IntegrationStatus }),
  z.object({
    question: z.literal("review_reflection"),
    /** The reflection as the person left it (the proposal when they accepted it unchanged). */
    reflection: text,
    /** The person asked that the intention be decomposed instead of retried. */
    decompose: z.boolean().default(false),
  }),
  z.object({
    question: z.literal("intention_budget"),
    choice: BudgetChoice,
    /** choice "grant": what is added to the intention's budget. */
    grant: Allowance.nullable().default(null),
  }),
]);
export type CheckpointAnswer = z.infer<typeof CheckpointAnswer>;
export type CheckpointAnswerInput = z.input<typeof CheckpointAnswer>;

/** One child's share of its parent's remaining budget. */
export const BudgetShare = z.object({ intentionId: z.string(), budget: Allowance });
export type BudgetShare = z.infer<typeof BudgetShare>;
