import { guardCommandFor, guardStoodAside, guardVerdict } from "@/server/domain/contract/regression-guard";
import type { IntentionView, RunView, SessionView } from "@/server/domain/session/view";
import type { Step } from "./step";

/**
 * Where the regression guard (domain/contract/regression-guard.ts) enters the RIVA transition:
 * - **before**: just before the run's first step that works on the workspace (after planning and any
 *   decomposition card). A run already under way without it (a log from before the guard existed)
 *   gets no guard: a "before" taken mid-run would compare with the wrong state.
 * - **after**: when the root is about to settle VERIFIED. A regression turns that settle into FAILED
 *   with the reason; otherwise the VERIFIED reason says what the guard saw.
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

/** A root's VERIFIED settle as the guard lets it through: its run after the work first, then the verdict. */
export function guardSettle(run: RunView, step: Step): Step {
  if (step.kind !== "settle" || step.status !== "VERIFIED" || step.intention.id !== run.rootId) return step;
  const guard = run.guard;
  if (!guard?.before) return step;
  // Nothing to compare with: no second run, the VERIFIED says why the guard stood aside.
  if (guard.before.couldNotRun !== undefined && !guard.after)
    return {
      ...step,
      reason: `${step.reason}; ${guardStoodAside(guard.command, guard.before.couldNotRun)}`,
    };
  if (!guard.after) return { kind: "guard", root: step.intention, phase: "after", command: guard.command };
  const verdict = guardVerdict(guard.command, guard.before, guard.after);
  if (verdict.kind === "regression")
    return { kind: "settle", intention: step.intention, status: "FAILED", reason: verdict.reason };
  return { ...step, reason: `${step.reason}; ${verdict.note}` };
}
