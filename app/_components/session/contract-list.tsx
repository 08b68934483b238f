import { type Criterion, type CriterionResult, describeCriterion } from "@/server/domain/contract/criteria";
import type { IntentionView } from "@/server/domain/session/view";
import { requestSourceNote } from "./contract-source";
import { TestCounts } from "./test-counts";

/** An intention's contract: each criterion, with its last check when there is one. */
export function ContractList({
  criteria,
  checks,
  by = null,
}: {
  criteria: Criterion[];
  checks: CriterionResult[] | null;
  /** Who wrote it (a model-written contract says so) and which proposed checks were left out. */
  by?: IntentionView["contractBy"];
}) {
  if (criteria.length === 0 && (by?.dropped.length ?? 0) === 0) return null;
  return (
    <>
      {by?.source === "model" ? (
        <p className="muted" data-testid="contract-source">
          Checks written by the model before work started (the acceptance named none).
        </p>
      ) : null}
      {by?.source === "request" ? (
        <p className="muted" data-testid="contract-source">
          {requestSourceNote(criteria)}
        </p>
      ) : null}
      {by?.source === "chaos" ? (
        <p className="muted" data-testid="contract-source">
          Full mode's Chaos role added an adversarial test; the intention is done only when it passes too.
        </p>
      ) : null}
      {by?.detectedTests?.length ? (
        <p className="muted" data-testid="contract-detected-tests">
          {by.source === "detected-tests"
            ? "Nothing checkable was named: the project's detected tests are the check."
            : "Every named check was already green before any work: the project's detected tests were added."}{" "}
          They verify only if they failed before the work and pass after it.
        </p>
      ) : null}
      {by?.generatedTest ? (
        <details data-testid="generated-test">
          <summary>
            {by.source === "chaos" ? "Adversarial test" : "Test first"}: {by.generatedTest.path}, written
            before {by.generatedTest.atCycle === 0 ? "the work" : `attempt ${by.generatedTest.atCycle + 1}`}
          </summary>
          <pre className="output">{by.generatedTest.content}</pre>
        </details>
      ) : null}
      {by && by.dropped.length > 0 ? (
        <details data-testid="contract-dropped">
          <summary>{by.dropped.length} proposed checks left out</summary>
          <ul>
            {by.dropped.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        </details>
      ) : null}
      <CriteriaItems criteria={criteria} checks={checks} />
    </>
  );
}

function CriteriaItems({ criteria, checks }: { criteria: Criterion[]; checks: CriterionResult[] | null }) {
  if (criteria.length === 0) return null;
  return (
    <ul className="contract" data-testid="contract" aria-label="Contract">
      {criteria.map((criterion, index) => {
        const check = checks?.[index];
        const state = check ? checkState(check) : "unchecked";
        return (
          <li
            key={describeCriterion(criterion)}
            data-testid="criterion"
            data-state={state}
            title={check?.evidence}
          >
            <span className={`criterion-mark ${state}`} role="img" aria-label={state}>
              {state === "pass" ? "✓" : state === "fail" ? "✗" : state === "not-run" ? "⊘" : "○"}
            </span>{" "}
            <span className="kind">{criterion.kind}</span> {describeCriterion(criterion)}
            {check?.tests ? <TestCounts tests={check.tests} testId="criterion-tests" /> : null}
          </li>
        );
      })}
    </ul>
  );
}

/** The evidence of a check, shown under the cycle (or the integration) that ran it. */
export function CheckResults({ results }: { results: CriterionResult[] }) {
  return (
    <ul className="contract" data-testid="check-results">
      {results.map((result) => (
        <li key={describeCriterion(result.criterion)} data-state={checkState(result)}>
          <span className={`criterion-mark ${result.passed ? "pass" : "fail"}`}>
            {result.passed ? "✓" : result.couldNotRun !== undefined ? "⊘" : "✗"}
          </span>{" "}
          {describeCriterion(result.criterion)}
          {result.ranCommand ? (
            <div className="muted small" data-testid="check-ran-command">
              ran <code>{result.ranCommand}</code>
            </div>
          ) : null}
          {result.tests ? <TestCounts tests={result.tests} testId="check-tests" /> : null}
          {result.couldNotRun !== undefined ? (
            <p className="warn small" data-testid="check-not-run">
              Could not run: {result.couldNotRun}
            </p>
          ) : null}
          <pre className="output">{result.evidence}</pre>
        </li>
      ))}
    </ul>
  );
}

/** A check that could not run is neither a pass nor a fail: it proves nothing. */
function checkState(result: CriterionResult): "pass" | "fail" | "not-run" {
  if (result.passed) return "pass";
  return result.couldNotRun !== undefined ? "not-run" : "fail";
}
