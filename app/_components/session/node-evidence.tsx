import { describeCriterion } from "@/server/domain/contract/criteria";
import type { IntentionView } from "@/server/domain/session/view";
import { EVIDENCE_LABELS } from "@/server/domain/vocabulary/session";

/**
 * What a node's verification rests on (issue #15), the same on the live node and in the replay: its
 * kind of evidence (weaker kinds say so), and each check as it stood before any work (the baseline):
 * red, already green (not evidence), could not run, or not run (not safe to run twice).
 */
export function NodeEvidence({ intention }: { intention: IntentionView }) {
  const baseline = intention.baseline;
  return (
    <>
      {intention.status === "VERIFIED" && (
        <div
          className={intention.evidence === "green-after-no-baseline" ? "warn small" : "small"}
          data-testid="intention-evidence"
          data-evidence={intention.evidence ?? "none"}
        >
          evidence:{" "}
          {intention.evidence
            ? EVIDENCE_LABELS[intention.evidence]
            : "no kind recorded (verified before issue #15)"}
          {intention.acceptedBy ? ` (${intention.acceptedBy})` : ""}
        </div>
      )}
      {baseline && (
        <ul className="contract small" data-testid="baseline" aria-label="Before any work">
          {intention.contract.map((criterion, index) => {
            const entry = baseline.results.find((result) => result.index === index);
            const state = !entry
              ? "not-run"
              : entry.result.couldNotRun !== undefined
                ? "could-not-run"
                : entry.result.passed
                  ? "already-green"
                  : "red";
            return (
              <li key={describeCriterion(criterion)} data-testid="baseline-check" data-state={state}>
                before any work: {describeCriterion(criterion)} —{" "}
                {state === "red"
                  ? "red (so a pass after the work is evidence)"
                  : state === "already-green"
                    ? "already green: not evidence of this work"
                    : state === "could-not-run"
                      ? `could not run (${entry?.result.couldNotRun ?? ""})`
                      : "not run (not safe to run twice)"}
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
}
