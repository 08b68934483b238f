import type { CriterionResult } from "@/server/domain/contract/criteria";

/**
 * The project's tests before any work of the run and each time just before its root would settle;
 * between two runs after the work, a repair cycle (a regression with a repair left).
 */
export interface RunGuardView {
  command: string;
  before: CriterionResult | null;
  /** The latest run after the work: the one that counts. */
  after: CriterionResult | null;
  /** Every run after the work, oldest first; repair `i` came between `afters[i]` and `afters[i + 1]`. */
  afters: CriterionResult[];
  /** Repair cycles the root may get (recorded on the "before" run; 0 for older logs). */
  repairsAllowed: number;
  repairs: GuardRepairView[];
}

/** A repair cycle the guard gave the root: why, and how many cycles the root had when it was given. */
export interface GuardRepairView {
  reason: string;
  cyclesBefore: number;
}
