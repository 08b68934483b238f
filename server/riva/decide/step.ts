import type { BudgetShare, CheckpointProposal } from "@/server/domain/events/checkpoint-schema";
import type { ApprovalView, IntentionView } from "@/server/domain/session/view";
import type { EvidenceKind, FinalRunStatus, Judgment } from "@/server/domain/vocabulary/session";
import type { Verdict } from "@/server/riva/decide/heuristics";
import type { QaStep } from "@/server/riva/decide/qa";
import type { EscalateStep } from "@/server/riva/decide/tiers";

/**
 * What `nextStep` (next-step.ts) returns, kept apart so the step builders it calls can name it.
 *
 * The RIVA transition: what a run does next, decided from its folded events (and the clock) alone.
 * Seed 000's recursive `work()` becomes a depth-first walk of the stored tree, so there is no call
 * stack to lose: a run interrupted at any point (a crash, `kill -9`, a restart) continues from where
 * its events say it is, and nothing recorded is done twice.
 */
export type Step =
  | { kind: "done" }
  /** The loop ends VERIFIED, FAILED or STOPPED; ANSWERED belongs to the read-only answer path alone. */
  | { kind: "end"; status: Exclude<FinalRunStatus, "ANSWERED">; reason: string }
  | { kind: "await-approval"; approvalId: string }
  /** Before anything is planned: read the request, scan the workspace, recall memories. */
  | { kind: "discover"; root: IntentionView }
  /** Agent mode with the person's reasoning switch on: the macro warmup, once, before any planning. */
  | { kind: "warmup"; root: IntentionView }
  /** The run spent its budget (times the grants so far): pause and ask a person. */
  | { kind: "ask-budget"; root: IntentionView; spent: string }
  /** No decision yet: `verdict` is can_verify_directly; when it says no, the model is asked to split. */
  | { kind: "plan"; intention: IntentionView; verdict: Verdict }
  /** Direct work stopped converging (`trigger`): a split is required, or the intention fails. */
  | { kind: "decompose"; intention: IntentionView; trigger: string; summary: string; fallback?: EscalateStep }
  /** Model tiers: the intention's tier is failing and it climbs to the next one (see tiers.ts). */
  | EscalateStep
  /** Advisory QA of a verified intention, and the delivery gate before the run ends (qa.ts). */
  | QaStep
  | { kind: "close-interrupted-cycle"; intention: IntentionView; cycleId: string }
  /** verify_integration: every child is verified; the parent's own contract is checked in the sandbox. */
  | { kind: "integrate"; intention: IntentionView; childCount: number }
  /**
   * Ask the model for the next action. `previousAttempts` is the short list the offline model reads;
   * the request itself is built from the store by act-context.ts (chain, contract, capped attempts, …).
   */
  | {
      kind: "act";
      intention: IntentionView;
      previousAttempts: string[];
      /** Why this is one more attempt, when it is not the usual retry (a regression guard's repair). */
      retryReason?: string;
    }
  /** A person approved (or edited) the command of the next cycle: run exactly that. */
  | { kind: "execute-approved"; intention: IntentionView; approval: ApprovalView }
  /** A person rejected the command: the cycle is recorded as skipped, and the loop goes on. */
  | { kind: "skip-rejected"; intention: IntentionView; approval: ApprovalView }
  | {
      kind: "settle";
      intention: IntentionView;
      status: "VERIFIED" | "FAILED";
      reason: string;
      /** VERIFIED: what it rests on (issue #15); a VERIFIED settle without it is never produced. */
      evidence?: EvidenceKind;
    }
  /** Red before green: run the intention's checks that are safe to run twice, once, before any work. */
  | { kind: "baseline"; intention: IntentionView }
  /** The regression guard: the project's tests before any work of the run, and before its root settles. */
  | { kind: "guard"; root: IntentionView; phase: "before" | "after"; command: string }
  /** The guard's latest run showed a regression and the root has a repair left: record the repair cycle. */
  | { kind: "guard-repair"; root: IntentionView; reason: string }
  /** A judgment question (or an intention's budget) goes to a person, with the auto proposal. */
  | {
      kind: "ask";
      intention: IntentionView;
      approvalKind: "judgment" | "integration" | "reflection" | "intention-budget";
      thought: string;
      proposal: CheckpointProposal;
    }
  /** judge_action answered, by the auto checkpoint or a person (`judgedBy`). */
  | {
      kind: "judge";
      intention: IntentionView;
      cycleId: string;
      judgment: Judgment;
      judgedBy: string;
      reason: string;
      /** Recorded with the judgment when it is a miss and nobody reviews reflections. */
      reflection: string | null;
    }
  /** review_reflection answered by a person: the reflection the next attempt reads. */
  | { kind: "reflect"; intention: IntentionView; cycleId: string; reflection: string }
  /** A parent with a budget decomposed: its children get equal shares of what is left. */
  | { kind: "split-budget"; intention: IntentionView; shares: BudgetShare[]; rule: string };
