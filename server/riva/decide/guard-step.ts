import { type GuardVerdict, guardCommandFor, guardVerdict } from "@/server/domain/contract/regression-guard";
import type { IntentionView, RunView } from "@/server/domain/session/view";
import type { Step } from "./step";

/**
 * Where the regression guard (domain/contract/regression-guard.ts) enters the RIVA transition:
 * - **before**: right after discovery, while nothing of the run has happened yet (no decision, no
 *   cycle, no child of the root). A run already under way without it (a log from before the guard
 *   existed) gets no guard: a "before" taken mid-run would compare with the wrong state.
 * - **after**: when the root is about to settle VERIFIED. A regression turns that settle into FAILED
 *   with the reason; otherwise the VERIFIED reason says what the guard saw.
 */

function untouched(root: IntentionView): boolean {
  return root.decisions.length === 0 && root.cycles.length === 0 && root.childIds.length === 0;
}

/** The guard's first run, due now; or null. */
export function guardBefore(run: RunView, root: IntentionView): Step | null {
  if (run.guard || !untouched(root)) return null;
  const command = guardCommandFor(run, root);
  return command ? { kind: "guard", root, phase: "before", command } : null;
}

const said = (verdict: GuardVerdict): string =>
  verdict.kind === "regression" ? verdict.reason : verdict.note;

/** A root's VERIFIED settle as the guard lets it through: its run after the work first, then the verdict. */
export function guardSettle(run: RunView, step: Step): Step {
  if (step.kind !== "settle" || step.status !== "VERIFIED" || step.intention.id !== run.rootId) return step;
  const guard = run.guard;
  if (!guard?.before) return step;
  // Nothing to compare with: no second run, the VERIFIED says why the guard stood aside.
  if (guard.before.couldNotRun !== undefined && !guard.after)
    return {
      ...step,
      reason: `${step.reason}; ${said(guardVerdict(guard.command, guard.before, guard.before))}`,
    };
  if (!guard.after) return { kind: "guard", root: step.intention, phase: "after", command: guard.command };
  const verdict = guardVerdict(guard.command, guard.before, guard.after);
  if (verdict.kind === "regression")
    return { kind: "settle", intention: step.intention, status: "FAILED", reason: verdict.reason };
  return { ...step, reason: `${step.reason}; ${verdict.note}` };
}
