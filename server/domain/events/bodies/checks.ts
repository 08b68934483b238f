import { z } from "zod";
import { CriterionResult } from "@/server/domain/contract/criteria";

/**
 * A contract check's command went through the tool dispatch (the one door): when (right after an
 * action, at the baseline before any work, or at a parent's integration), exactly which command and
 * its binding hash, what the gate decided and how it ended. The verdict of the criterion itself is in
 * the `criteria-checked` (or `checks-baselined`) event next to it.
 */
export const CheckRanBody = z.object({
  type: z.literal("check-ran"),
  runId: z.string(),
  intentionId: z.string(),
  /** The cycle whose result it checks; null at the baseline and at integration. */
  cycleId: z.string().nullable(),
  phase: z.enum(["after-action", "baseline", "integration", "guard"]),
  command: z.string().max(2_000),
  /** `sha256:` binding of `shell.exec {command}`, as the approval gate binds it. */
  binding: z.string().max(100).nullable(),
  status: z.enum(["ok", "failed", "denied", "ask", "invalid"]),
  exitCode: z.number().int().nullable(),
  /** Why the gate let it run or stopped it (policy, a person's approval of the card, the deny-list). */
  gate: z.string().max(1_000),
  durationMs: z.number().nonnegative(),
});

/**
 * Red before green: an intention's checks run once before its first action. `results` are the checks
 * that are safe to run twice (read-only by the gate, a test command of the project, or a file/function
 * check), in contract order by `index`; `skipped` are the contract indexes that were not run (a check
 * not safe to run twice). A result that could not run is "could not run", not red.
 */
export const ChecksBaselinedBody = z.object({
  type: z.literal("checks-baselined"),
  runId: z.string(),
  intentionId: z.string(),
  results: z.array(z.object({ index: z.number().int().nonnegative(), result: CriterionResult })).max(20),
  skipped: z.array(z.number().int().nonnegative()).max(20),
});

/**
 * The regression guard (contract/regression-guard.ts): the project's detected test command, run once
 * before any work of the run ("before") and once just before its root would settle VERIFIED ("after").
 * It is recorded on the run, never in a contract: it can stop a VERIFIED, never give one.
 */
export const RegressionGuardCheckedBody = z.object({
  type: z.literal("regression-guard-checked"),
  runId: z.string(),
  /** The run's root intention. */
  intentionId: z.string(),
  phase: z.enum(["before", "after"]),
  command: z.string().max(2_000),
  result: CriterionResult,
  /**
   * On the "before" run: how many repair cycles the run's root may get for a regression (the constant
   * of the version that started the guard, so a resume gives the same answer). Absent (logs from before
   * repairs existed): none.
   */
  repairs: z.number().int().nonnegative().max(10).optional(),
});

/**
 * The guard's run after the work showed a regression and the root got a repair cycle instead of
 * FAILED (decide/guard-step.ts): the next act of the root carries `reason` (what the guard saw: its
 * command, counts and failing test names), and the guard runs again before any VERIFIED.
 */
export const RegressionGuardRepairBody = z.object({
  type: z.literal("regression-guard-repair"),
  runId: z.string(),
  /** The run's root intention. */
  intentionId: z.string(),
  reason: z.string().max(4_000),
});

/**
 * This family's event types (contract checks run outside a cycle).
 * The union (schema.ts) is every family's tuple; a new type of this family goes here.
 */
export const CHECK_EVENTS = [
  CheckRanBody,
  ChecksBaselinedBody,
  RegressionGuardCheckedBody,
  RegressionGuardRepairBody,
] as const;
