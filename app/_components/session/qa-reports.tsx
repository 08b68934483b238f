"use client";

import { deliveryCheckOf } from "@/server/domain/session/fold-qa";
import type { DeliveryReportView, IntentionView, QaReportView, RunView } from "@/server/domain/session/view";

/**
 * Advisory QA (seed 001 §2.3) and the delivery gate (§2.5) as the log tells them: a node's reviews,
 * folded onto it, and the run's delivery state. QA is advice: nothing here suggests it changed the
 * node's status, which keeps its own badge.
 */

const VERDICT_CLASS = { pass: "ok", concerns: "warn", fail: "danger" } as const;

function verdictLabel(entry: QaReportView): string {
  return entry.report ? entry.report.verdict : "not reviewed";
}

/** The node's QA reports, closed by default: a click (or Enter) on the summary opens them. */
export function NodeQaReports({ intention }: { intention: IntentionView }) {
  const latest = intention.qaReports.at(-1);
  if (!latest) return null;
  const className = latest.report ? VERDICT_CLASS[latest.report.verdict] : "warn";
  return (
    <details className="qa-reports" data-testid="qa-reports" data-verdict={verdictLabel(latest)}>
      <summary aria-label={`QA report for "${intention.what}": ${verdictLabel(latest)} (advisory)`}>
        <span className={`badge ${className}`} data-testid="qa-verdict">
          QA: {verdictLabel(latest)}
        </span>{" "}
        <span className="muted small">
          advisory{intention.qaReports.length > 1 ? ` · ${intention.qaReports.length} reviews` : ""}
        </span>
      </summary>
      {intention.qaReports.map((entry) => (
        <QaReportBody key={entry.reviewId} entry={entry} />
      ))}
    </details>
  );
}

function QaReportBody({ entry }: { entry: QaReportView }) {
  const report = entry.report;
  return (
    <div className="qa-report" data-testid="qa-report">
      <div className="muted small">
        by {entry.offline ? "the built-in offline model (heuristics)" : entry.modelId} · read-only tools:{" "}
        {entry.tools.join(", ") || "none"}
        {entry.reads.length > 0 ? ` · read ${entry.reads.join("; ")}` : ""}
      </div>
      {report ? (
        <>
          <p data-testid="qa-summary">{report.summary}</p>
          {report.findings.length > 0 ? (
            <ul className="qa-findings" data-testid="qa-findings">
              {report.findings.map((finding, index) => (
                // Findings have no id of their own; their order in the report is fixed.
                // biome-ignore lint/suspicious/noArrayIndexKey: a stored report never reorders
                <li key={index} data-testid="qa-finding" data-severity={finding.severity}>
                  <span
                    className={`badge ${finding.severity === "high" ? "danger" : finding.severity === "medium" ? "warn" : "info"}`}
                  >
                    {finding.severity}
                  </span>{" "}
                  {finding.file && <code>{finding.file}</code>} {finding.message}
                  {finding.suggestion && <div className="muted small">suggestion: {finding.suggestion}</div>}
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted small">No findings.</p>
          )}
        </>
      ) : (
        <p className="error small" data-testid="qa-error">
          The review could not be made: {entry.error ?? "no reason recorded"}
        </p>
      )}
    </div>
  );
}

/** The run's delivery gate: DONE (by which source) is final; NEEDS_WORK until then. */
export function RunDelivery({ run }: { run: RunView }) {
  const gate = run.delivery;
  const ignored = run.deliveryReports.filter((entry) => !entry.moved && entry.state === "NEEDS_WORK").length;
  const title =
    gate.status === "DONE"
      ? `Delivered: ${gate.reason} (reported by ${gate.doneBy}; final — later reports cannot undo it${ignored > 0 ? `, ${ignored} later report${ignored === 1 ? "" : "s"} ignored` : ""})`
      : "Not delivered yet: only the run's verification (or a delivery check) can mark it done; QA only advises";
  const check = deliveryCheckOf(run);
  return (
    <>
      <span
        role="status"
        className={`pill ${gate.status === "DONE" ? "" : "warn"}`}
        data-testid="delivery-state"
        data-state={gate.status}
        title={title}
        aria-label={`Delivery: ${gate.status === "DONE" ? "done" : "needs work"}. ${title}`}
      >
        delivery: {gate.status === "DONE" ? "DONE" : "NEEDS_WORK"}
      </span>
      {check && <DeliveryCheck check={check} />}
    </>
  );
}

/**
 * The delivery check's own view next to the gate: what the model answered, why, and what it says is
 * missing — shown even when the gate, DONE by the verification, did not move because of it.
 */
function DeliveryCheck({ check }: { check: DeliveryReportView }) {
  const said = check.modelState ?? check.state;
  const missing = check.missing.length > 0 ? ` Missing: ${check.missing.join("; ")}.` : "";
  const by = check.fallback ? ` (${check.fallback})` : check.modelId ? ` (${check.modelId})` : "";
  const title = `Delivery check${by}: ${said}. ${check.reason}${missing}`;
  return (
    <span
      role="note"
      className={`pill ${said === "DONE" ? "" : "warn"}`}
      data-testid="delivery-check"
      data-state={said}
      title={title}
      aria-label={title}
    >
      check: {said}
      {check.missing.length > 0 && (
        <span data-testid="delivery-missing"> · missing: {check.missing.join("; ")}</span>
      )}
    </span>
  );
}
