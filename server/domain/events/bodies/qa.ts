import { z } from "zod";
import { DeliverySource } from "@/server/domain/policy/delivery-gate";
import { DeliveryState } from "@/server/domain/policy/reasoning-outcome";

/**
 * Advisory QA and the delivery gate (seed 001 §2.3, §2.5). A QA report is advice attached to an
 * intention: it never changes the intention's status, the run's answer or the delivery gate. The gate
 * is the run's "is the request delivered?" state, folded through `reduceDeliveryGate`, where DONE is
 * terminal.
 */

export const QA_VERDICTS = ["pass", "concerns", "fail"] as const;
export const QaVerdict = z.enum(QA_VERDICTS);
export type QaVerdict = z.infer<typeof QaVerdict>;

export const QA_SEVERITIES = ["info", "low", "medium", "high"] as const;
export const QaSeverity = z.enum(QA_SEVERITIES);
export type QaSeverity = z.infer<typeof QaSeverity>;

/** Caps keep a verbose reviewer from filling the log (and the next prompt that quotes it). */
export const QA_MAX_FINDINGS = 12;

export const QaFinding = z.object({
  severity: QaSeverity,
  /** Workspace-relative file (or a command) the finding is about; null when it is about the whole. */
  file: z.string().max(300).nullable().default(null),
  message: z.string().min(1).max(1_000),
  suggestion: z.string().max(1_000).nullable().default(null),
});
export type QaFinding = z.infer<typeof QaFinding>;

/** The structured report a reviewer returns (the model's `submit_qa_report` input is parsed with it). */
export const QaReport = z.object({
  verdict: QaVerdict,
  summary: z.string().min(1).max(2_000),
  findings: z.array(QaFinding).max(QA_MAX_FINDINGS).default([]),
});
export type QaReport = z.infer<typeof QaReport>;
export type QaReportInput = z.input<typeof QaReport>;

/**
 * A reviewer looked at an intention (after it was VERIFIED, or at the root before the run ended).
 * `report` is null when the review could not be made (`error` says why): QA is advisory, so a failed
 * review is recorded and the run goes on.
 */
export const QaReportedBody = z.object({
  type: z.literal("qa-reported"),
  runId: z.string(),
  intentionId: z.string(),
  reviewId: z.string(),
  modelId: z.string(),
  offline: z.boolean(),
  report: QaReport.nullable(),
  error: z.string().max(2_000).nullable().default(null),
  /** The read-only tools the reviewer was offered (vocabulary names), as the policy gave them. */
  tools: z.array(z.string().max(80)).max(20).default([]),
  /** What it read on the way (`fs.read src/a.ts`), through the one dispatch. */
  reads: z.array(z.string().max(500)).max(20).default([]),
});

/** One report into the run's delivery gate; the fold decides whether it can move the gate. */
export const DeliveryReportedBody = z.object({
  type: z.literal("delivery-reported"),
  runId: z.string(),
  state: DeliveryState,
  source: DeliverySource,
  reason: z.string().max(2_000),
  /**
   * The delivery check's own view (source `delivery_check`): what the model answered — which `state`
   * may not follow, since verification is authoritative for DONE — and what it says is missing.
   * Defaulted: the other sources, and reports from before the check, have none.
   */
  modelState: DeliveryState.nullable().default(null),
  missing: z.array(z.string().max(300)).max(8).default([]),
  modelId: z.string().max(200).nullable().default(null),
  /** Set when the model could not answer and the heuristic did (the failure is its own llm-called). */
  fallback: z.string().max(1_000).nullable().default(null),
});

/**
 * This family's event types (advisory QA and the delivery gate).
 * The union (schema.ts) is every family's tuple; a new type of this family goes here.
 */
export const QA_EVENTS = [QaReportedBody, DeliveryReportedBody] as const;
