import {
  guardCommandFor,
  guardFailedAfterRepairs,
  guardRepairReason,
  guardStoodAside,
  guardVerdict,
} from "@/server/domain/contract/regression-guard";
import type { RivaLimits } from "@/server/domain/session/limits";
import type { IntentionView, RunGuardView, RunView, SessionView } from "@/server/domain/session/view";
import type { Step } from "./step";

/**
 * Where the regression guard (domain/contract/regression-guard.ts) enters the RIVA transition:
 * - **before**: just before the run's first step that works on the workspace (after planning and any
 *   decomposition card). A run already under way without it (a log from before the guard existed)
 *   gets no guard: a "before" taken mid-run would compare with the wrong state.
 * - **after**: when the root is about to settle VERIFIED, and again after each repair cycle (only the
 *   latest run counts). A regression gives a leaf root a repair cycle while it has one left (and the
 *   run's cycle limits leave room): its act carries what the guard saw, its own check must pass again
 *   on the new workspace, then the guard runs again. With no repair left it turns that settle into
 *   FAILED, naming every run after the work; otherwise the VERIFIED reason says what the guard saw.
 */

/** The steps that change the workspace (or run a check of it): the guard's first run comes before them. */
const WORK: ReadonlySet<Step["kind"]> = new Set([
  "baseline",
  "act",
  "execute-approved",
  "skip-rejected",
  "close-interrupted-cycle",
  "integrate",
]);

/** No intention of the run has been worked on or checked yet. */
function untouched(view: Pick<SessionView, "intentions">, runId: string): boolean {
  return Object.values(view.intentions).every(
    (intention) =>
      intention.runId !== runId ||
      (intention.cycles.length === 0 &&
        intention.baseline === undefined &&
        intention.integrationChecks === null),
  );
}

/**
 * The guard's first run, due now: just before the run's first step that works on the workspace, so
 * planning and a decomposition card come first (the card lists the guard, and a person's approval of
 * it covers the guard's command). Null when it is not due.
 */
export function guardBefore(
  view: Pick<SessionView, "intentions">,
  run: RunView,
  root: IntentionView,
  next: Step,
): Step | null {
  if (run.guard || !WORK.has(next.kind) || !untouched(view, run.id)) return null;
  const command = guardCommandFor(run, root);
  return command ? { kind: "guard", root, phase: "before", command } : null;
}

/** Action cycles the run has started (an interrupted one, recovered, does not count). */
export function actionCyclesInRun(view: Pick<SessionView, "intentions">, runId: string): number {
  return Object.values(view.intentions)
    .filter((intention) => intention.runId === runId)
    .reduce((sum, intention) => sum + intention.cycles.filter((cycle) => !cycle.interrupted).length, 0);
}

/** The regressions the given runs after the work showed, oldest first. */
function regressionsOf(
  guard: RunGuardView,
  before: NonNullable<RunGuardView["before"]>,
  afters: readonly NonNullable<RunGuardView["after"]>[],
): string[] {
  return afters.flatMap((after) => {
    const verdict = guardVerdict(guard.command, before, after);
    return verdict.kind === "regression" ? [verdict.reason] : [];
  });
}

type GuardLimits = Pick<RivaLimits, "maxCyclesPerIntention" | "maxIterations">;

/** A regression on the latest run: a repair cycle when one is left and the engine can give it, else FAILED. */
function repairOrFail(
  view: Pick<SessionView, "intentions">,
  run: RunView,
  guard: RunGuardView,
  root: IntentionView,
  regression: string,
  limits: GuardLimits,
): Step {
  const failed = (reason: string): Step => ({ kind: "settle", intention: root, status: "FAILED", reason });
  const before = guard.before;
  if (!before) return failed(regression);
  if (guard.repairs.length >= guard.repairsAllowed)
    return failed(
      guardFailedAfterRepairs([...regressionsOf(guard, before, guard.afters.slice(0, -1)), regression]),
    );
  // A decomposed root does no work of its own (its parts are settled): nothing could act on the repair.
  if (root.childIds.length > 0)
    return failed(`${regression}; no repair cycle is given for a decomposed root (its parts are settled)`);
  if (
    root.cycles.length >= limits.maxCyclesPerIntention ||
    actionCyclesInRun(view, run.id) >= limits.maxIterations
  )
    return failed(`${regression}; no action cycle is left for a repair (the run's cycle limits are spent)`);
  return { kind: "guard-repair", root, reason: guardRepairReason(regression) };
}

/**
 * A root's VERIFIED settle as the guard lets it through: its run after the work first (again after a
 * repair cycle), then the verdict of the latest run.
 */
export function guardSettle(
  view: Pick<SessionView, "intentions" | "environment">,
  run: RunView,
  step: Step,
  limits: GuardLimits,
): Step {
  if (step.kind !== "settle" || step.status !== "VERIFIED" || step.intention.id !== run.rootId) return step;
  const guard = run.guard;
  if (!guard?.before) return step;
  // Nothing to compare with: no second run, the VERIFIED says why the guard stood aside.
  if (guard.before.couldNotRun !== undefined && guard.afters.length === 0)
    return {
      ...step,
      reason: `${step.reason}; ${guardStoodAside(guard.command, guard.before.couldNotRun, view.environment?.setup)}`,
    };
  // Each repair cycle is followed by a new run; only the latest counts (never an earlier pass).
  if (!guard.after || guard.afters.length <= guard.repairs.length)
    return { kind: "guard", root: step.intention, phase: "after", command: guard.command };
  const verdict = guardVerdict(guard.command, guard.before, guard.after);
  if (verdict.kind === "regression")
    return repairOrFail(view, run, guard, step.intention, verdict.reason, limits);
  const repaired =
    guard.repairs.length > 0 ? ` (after ${repairCount(guard.repairs.length)} for a regression)` : "";
  return { ...step, reason: `${step.reason}; ${verdict.note}${repaired}` };
}

const repairCount = (count: number) => `${count} repair cycle${count === 1 ? "" : "s"}`;

/**
 * The root's repair cycle, decided from the log: "due" while the latest repair has no cycle yet (the
 * root's last cycle is the one whose work regressed), or FAILED once a cycle after it was judged not
 * a success — the repair had to pass the task's own check again. Null when no repair is under way.
 */
export function guardRepairState(
  run: RunView,
  node: IntentionView,
): { kind: "due"; reason: string } | { kind: "failed"; reason: string } | null {
  const repair = run.guard?.repairs.at(-1);
  if (!repair || node.id !== run.rootId || node.childIds.length > 0) return null;
  const last = node.cycles.at(-1);
  if (node.cycles.length === repair.cyclesBefore)
    return last?.judgment === "SUCCESS" ? { kind: "due", reason: repair.reason } : null;
  if (node.cycles.length > repair.cyclesBefore && last?.judgment && last.judgment !== "SUCCESS") {
    const guard = run.guard;
    const regressions = guard?.before ? regressionsOf(guard, guard.before, guard.afters) : [];
    const why = last.judgmentReason ? `: ${last.judgmentReason}` : "";
    return {
      kind: "failed",
      reason: `${guardFailedAfterRepairs(regressions)}; its repair cycle did not pass the task's own check${why}`,
    };
  }
  return null;
}
