"use client";

import { useState } from "react";
import { reflectionOf, warmupOf } from "@/server/domain/session/fold-reasoning";
import { shownIntentionStatus } from "@/server/domain/session/shown-status";
import type {
  CycleView,
  IntentionView,
  ReasoningEntry,
  SessionView,
  ToolCalledView,
} from "@/server/domain/session/view";
import { firstLineSummary, fitText } from "@/server/domain/text/fit-text";
import { SHOWN_STATUS_LABELS } from "@/server/domain/vocabulary/shown-status";
import { AcceptAsVerified } from "./accept-node";
import { CheckResults, ContractList } from "./contract-list";
import { IntentSummary } from "./intent-summary";
import { LiveCycleOutput } from "./live-output";
import { NodeContext } from "./node-context";
import { NodeEvidence } from "./node-evidence";
import { NodeRoles } from "./node-roles";
import { NodeTier, NodeTierNotes } from "./node-tier";
import { NodeWhat } from "./node-what";
import { NodeQaReports } from "./qa-reports";
import { CorrectionList, CycleReasoning, WarmupReasoning } from "./reasoning-view";
import { RegressionGuardLine } from "./regression-guard-line";
import { NodeSpend } from "./spend";
import { JudgmentBadge, NodeStatusBadge } from "./status-badge";
import { TestCounts } from "./test-counts";

/**
 * `lazyCycles` (the replay, whose logs can be long): a cycle's details are rendered when opened, not
 * up front, so a 10 000-event session paints at once. The live view renders them all, which keeps
 * their text findable in the page.
 */
export function IntentionTree({
  view,
  rootId,
  lazyCycles = false,
}: {
  view: SessionView;
  rootId: string;
  lazyCycles?: boolean;
}) {
  const root = view.intentions[rootId];
  return root ? (
    <>
      {!lazyCycles && <TreeAnnouncer view={view} root={root} />}
      <ul className="tree" data-testid="intention-tree">
        <IntentionNode view={view} intention={root} lazyCycles={lazyCycles} />
      </ul>
    </>
  ) : null;
}

/**
 * The live tree's status, said politely to a screen reader when it changes (issue #17.5): the root's
 * shown status and how many of its steps are verified, not every node's text.
 */
function TreeAnnouncer({ view, root }: { view: SessionView; root: IntentionView }) {
  const run = view.runs[root.runId];
  const shown = SHOWN_STATUS_LABELS[shownIntentionStatus(view, root, run)].toLowerCase();
  const children = root.childIds.map((id) => view.intentions[id]).filter((child) => child !== undefined);
  const verified = children.filter((child) => child.status === "VERIFIED").length;
  const steps = children.length > 0 ? `; ${verified} of ${children.length} steps verified` : "";
  return (
    <p className="visually-hidden" role="status" aria-live="polite" data-testid="tree-announcer">
      {`${firstLineSummary(root.what, 80).line}: ${shown}${steps}`}
    </p>
  );
}

function IntentionNode({
  view,
  intention,
  lazyCycles,
}: {
  view: SessionView;
  intention: IntentionView;
  lazyCycles: boolean;
}) {
  const decision = intention.decisions.filter((entry) => entry.decision !== "retry").at(-1);
  const lastChecks =
    intention.integrationChecks ?? intention.cycles.findLast((cycle) => cycle.checks)?.checks ?? null;
  const run = view.runs[intention.runId];
  return (
    <li
      className="tree-node"
      data-testid="intention"
      data-depth={intention.depth}
      data-status={intention.status}
    >
      <div className="node-head">
        <NodeStatusBadge view={view} intention={intention} />
        <NodeWhat what={intention.what} />
        <NodeTier view={view} intention={intention} />
        <NodeSpend view={view} intentionId={intention.id} />
      </div>
      {intention.acceptance && (
        <div className="muted small">
          acceptance: {fitText(intention.acceptance, 300, "open the full text above")}
        </div>
      )}
      {intention.ownedScope.length > 0 && (
        <div className="muted small" data-testid="intention-scope">
          scope: {intention.ownedScope.join(" ")}
          {intention.scopeApproval
            ? ` (approved by ${intention.scopeApproval.approvedBy} with its check: writes there pass while the check is not red)`
            : " (not approved by a person: writes there ask)"}
        </div>
      )}
      <ContractList criteria={intention.contract} checks={lastChecks} by={intention.contractBy} />
      <NodeEvidence intention={intention} />
      <AcceptAsVerified view={view} intention={intention} />
      {intention.depth === 0 && (
        <RegressionGuardLine guard={run?.guard} runEnded={run !== undefined && run.status !== "RUNNING"} />
      )}
      {intention.depth === 0 && <IntentSummary intent={run?.intent ?? null} />}
      {intention.depth === 0 && run && <WarmupReasoning entry={warmupOf(run)} />}
      {intention.depth === 0 && run && <CorrectionList corrections={run.corrections} />}
      {decision && (
        <div className="muted small" data-testid="intention-decision">
          {decision.decision === "decompose" ? "decomposed" : "worked directly"}: {decision.reason}
        </div>
      )}
      <NodeTierNotes intention={intention} />
      <NodeRoles intention={intention} />
      <NodeContext view={view} intention={intention} />
      <NodeQaReports intention={intention} />
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
            <CycleDetails
              key={cycle.id}
              cycle={cycle}
              lazy={lazyCycles}
              reads={intention.reads.filter((read) => read.cycleIndex === cycle.index)}
              reasoning={run ? reflectionOf(run, intention.id, cycle.index) : undefined}
            />
          ))}
        </div>
      )}
      {intention.childIds.length > 0 && (
        <Children view={view} childIds={intention.childIds} lazyCycles={lazyCycles} />
      )}
    </li>
  );
}

/** In a replay, a node with very many children shows the first ones and the rest on request. */
const FIRST_CHILDREN = 50;

function Children({
  view,
  childIds,
  lazyCycles,
}: {
  view: SessionView;
  childIds: string[];
  lazyCycles: boolean;
}) {
  const [all, setAll] = useState(false);
  const shown = lazyCycles && !all ? childIds.slice(0, FIRST_CHILDREN) : childIds;
  return (
    <ul className="tree">
      {shown.map((id) => {
        const child = view.intentions[id];
        return child ? (
          <IntentionNode key={id} view={view} intention={child} lazyCycles={lazyCycles} />
        ) : null;
      })}
      {shown.length < childIds.length && (
        <li>
          <button type="button" className="link" onClick={() => setAll(true)} data-testid="show-all-children">
            Show all {childIds.length} children ({childIds.length - shown.length} more)
          </button>
        </li>
      )}
    </ul>
  );
}

/** The summary line of an action: a command as written, a tool call as its type, tool and file. */
function actionLabel(action: CycleView["action"]): string {
  if (action.tool === null || action.tool === "shell.exec") return action.content;
  return [action.type, action.tool, action.target ?? ""].filter((word) => word !== "").join(" ");
}

function CycleDetails({
  cycle,
  lazy,
  reads,
  reasoning,
}: {
  cycle: CycleView;
  lazy: boolean;
  reads: ToolCalledView[];
  reasoning: ReasoningEntry | undefined;
}) {
  // Live, a cycle stays open until it succeeds (it closes by itself then); in a replay it opens on a click.
  const [opened, setOpened] = useState(false);
  return (
    <details
      className="cycle"
      data-testid="cycle"
      open={lazy ? opened : cycle.judgment !== "SUCCESS"}
      onToggle={(event) => setOpened(event.currentTarget.open)}
    >
      <summary>
        cycle {cycle.index + 1}: <code data-testid="cycle-action">{actionLabel(cycle.action)}</code>{" "}
        {cycle.judgment ? (
          <JudgmentBadge judgment={cycle.judgment} testId="cycle-judgment" />
        ) : (
          <span className="muted">
            {cycle.output !== null || cycle.error !== null ? "awaiting judgment…" : "running…"}
          </span>
        )}
      </summary>
      {(opened || !lazy) && <CycleBody cycle={cycle} reads={reads} reasoning={reasoning} />}
    </details>
  );
}

function CycleBody({
  cycle,
  reads,
  reasoning,
}: {
  cycle: CycleView;
  reads: ToolCalledView[];
  reasoning: ReasoningEntry | undefined;
}) {
  const isCommand = cycle.action.tool === null || cycle.action.tool === "shell.exec";
  return (
    <dl>
      {reasoning && (
        <>
          <dt>reasoning</dt>
          <dd>
            <CycleReasoning entry={reasoning} />
          </dd>
        </>
      )}
      {reads.length > 0 && (
        <>
          <dt>read first</dt>
          <dd>
            <ul className="reads" data-testid="cycle-reads">
              {reads.map((read) => (
                <li key={read.seq}>
                  <details>
                    <summary>
                      <code>{read.input}</code>{" "}
                      <span className="muted small">
                        {read.status} · {read.durationMs} ms
                      </span>
                    </summary>
                    <pre className="output">{read.output}</pre>
                  </details>
                </li>
              ))}
            </ul>
          </dd>
        </>
      )}
      <dt>thought</dt>
      <dd>{cycle.thought}</dd>
      <dt>action</dt>
      <dd data-testid="cycle-action-detail">
        {isCommand ? (
          <>
            {cycle.action.type} <code>{cycle.action.content}</code>
          </>
        ) : (
          <>
            {cycle.action.type} <code>{actionLabel(cycle.action).replace(`${cycle.action.type} `, "")}</code>
            <pre className="output">{cycle.action.content}</pre>
          </>
        )}
      </dd>
      {cycle.gate && (
        <>
          <dt>gate</dt>
          <dd data-testid="cycle-gate">
            {cycle.gate.decision}: {cycle.gate.reason}
          </dd>
        </>
      )}
      <dt>result</dt>
      <dd>
        {cycle.durationMs === null && cycle.error === null && <LiveCycleOutput cycleId={cycle.id} />}
        {cycle.error && (
          <span className="error" data-testid="cycle-error">
            {cycle.error}
          </span>
        )}
        {/* A stopped command has both: why it ended, and what it printed until then. */}
        {cycle.durationMs !== null && (!cycle.error || cycle.output) && (
          <>
            <span className="muted small">
              exit code {cycle.exitCode ?? "—"}
              {cycle.timedOut ? " (timed out)" : ""}
              {cycle.durationMs !== null ? ` · ${cycle.durationMs} ms` : ""}
            </span>
            {cycle.tests ? <TestCounts tests={cycle.tests} testId="cycle-tests" /> : null}
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
          <dd data-testid="cycle-judged-by">
            {cycle.judgment} by {cycle.judgedBy}: {cycle.judgmentReason}
          </dd>
        </>
      )}
      {cycle.reflection && (
        <>
          <dt>reflection</dt>
          <dd>
            <pre className="output" data-testid="cycle-reflection">
              {cycle.reflection}
            </pre>
          </dd>
        </>
      )}
    </dl>
  );
}
