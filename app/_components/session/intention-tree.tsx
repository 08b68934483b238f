"use client";

import type { CycleView, IntentionView, SessionView } from "@/server/events/fold";
import { CheckResults, ContractList } from "./contract-list";
import { IntentSummary } from "./intent-summary";
import { NodeSpend } from "./spend";
import { StatusBadge } from "./status-badge";

export function IntentionTree({ view, rootId }: { view: SessionView; rootId: string }) {
  const root = view.intentions[rootId];
  return root ? (
    <ul className="tree" data-testid="intention-tree">
      <IntentionNode view={view} intention={root} />
    </ul>
  ) : null;
}

function IntentionNode({ view, intention }: { view: SessionView; intention: IntentionView }) {
  const decision = intention.decisions.filter((entry) => entry.decision !== "retry").at(-1);
  const lastChecks =
    intention.integrationChecks ?? intention.cycles.findLast((cycle) => cycle.checks)?.checks ?? null;
  return (
    <li
      className="tree-node"
      data-testid="intention"
      data-depth={intention.depth}
      data-status={intention.status}
    >
      <div className="node-head">
        <StatusBadge status={intention.status} testId="intention-status" />
        <span className="node-what" data-testid="intention-what">
          {intention.what}
        </span>
        <NodeSpend view={view} intentionId={intention.id} />
      </div>
      {intention.acceptance && <div className="muted small">acceptance: {intention.acceptance}</div>}
      <ContractList criteria={intention.contract} checks={lastChecks} />
      {intention.depth === 0 && <IntentSummary intent={view.runs[intention.runId]?.intent ?? null} />}
      {decision && (
        <div className="muted small" data-testid="intention-decision">
          {decision.decision === "decompose" ? "decomposed" : "worked directly"}: {decision.reason}
        </div>
      )}
      {intention.reason && intention.status !== "ACTIVE" && (
        <div
          className={intention.status === "FAILED" ? "error small" : "muted small"}
          data-testid="intention-reason"
        >
          {intention.reason}
        </div>
      )}
      {intention.cycles.length > 0 && (
        <div className="cycles">
          {intention.cycles.map((cycle) => (
            <CycleDetails key={cycle.id} cycle={cycle} />
          ))}
        </div>
      )}
      {intention.childIds.length > 0 && (
        <ul className="tree">
          {intention.childIds.map((id) => {
            const child = view.intentions[id];
            return child ? <IntentionNode key={id} view={view} intention={child} /> : null;
          })}
        </ul>
      )}
    </li>
  );
}

function CycleDetails({ cycle }: { cycle: CycleView }) {
  return (
    <details className="cycle" data-testid="cycle" open={cycle.judgment !== "SUCCESS"}>
      <summary>
        cycle {cycle.index + 1}: <code>{cycle.action.content}</code>{" "}
        {cycle.judgment ? (
          <StatusBadge status={cycle.judgment} testId="cycle-judgment" />
        ) : (
          <span className="muted">running…</span>
        )}
      </summary>
      <dl>
        <dt>thought</dt>
        <dd>{cycle.thought}</dd>
        <dt>action</dt>
        <dd>
          {cycle.action.type} <code>{cycle.action.content}</code>
        </dd>
        <dt>result</dt>
        <dd>
          {cycle.error && (
            <span className="error" data-testid="cycle-error">
              {cycle.error}
            </span>
          )}
          {/* A stopped command has both: why it ended, and what it printed until then. */}
          {(!cycle.error || cycle.output) && (
            <>
              <span className="muted small">
                exit code {cycle.exitCode ?? "—"}
                {cycle.timedOut ? " (timed out)" : ""}
                {cycle.durationMs !== null ? ` · ${cycle.durationMs} ms` : ""}
              </span>
              <pre className="output" data-testid="cycle-output">
                {cycle.output ?? ""}
              </pre>
            </>
          )}
        </dd>
        {cycle.checks && (
          <>
            <dt>contract</dt>
            <dd>
              <CheckResults results={cycle.checks} />
            </dd>
          </>
        )}
        {cycle.judgment && (
          <>
            <dt>judgment</dt>
            <dd>
              {cycle.judgment} by {cycle.judgedBy}: {cycle.judgmentReason}
            </dd>
          </>
        )}
        {cycle.reflection && (
          <>
            <dt>reflection</dt>
            <dd>
              <pre className="output">{cycle.reflection}</pre>
            </dd>
          </>
        )}
      </dl>
    </details>
  );
}
