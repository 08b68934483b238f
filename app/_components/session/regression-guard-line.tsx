import type { RunGuardView } from "@/server/domain/session/view";
import { afterTheWork, guardOutcome } from "./regression-guard-text";

/**
 * The regression guard on the run's root, live and in the replay: the project's tests before any work
 * and after it — and, when the first run after the work showed a regression, the repair cycle the
 * root got and the run after it (only the latest run counts). It only ever stops a VERIFIED, so it is
 * shown apart from the node's evidence.
 */
export function RegressionGuardLine({
  guard,
  runEnded,
}: {
  guard: RunGuardView | undefined;
  runEnded: boolean;
}) {
  if (!guard) return null;
  const before = guardOutcome(guard.before);
  const after = guardOutcome(guard.after);
  const regression =
    before.state === "passed" && (after.state === "failed" || after.state === "could-not-run");
  return (
    <div
      className={regression ? "error small" : "muted small"}
      data-testid="regression-guard"
      data-before={before.state}
      data-after={after.state}
      data-repairs={guard.repairs.length}
    >
      regression guard <code>{guard.command}</code>: before any work {before.text};{" "}
      {afterTheWork(guard, runEnded)}
    </div>
  );
}
