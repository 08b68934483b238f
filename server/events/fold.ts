import type { Criterion, CriterionResult } from "@/server/contract/criteria";
import type { DiscoveredIntent } from "@/server/riva/discovery/discovered-intent";
import type { Allowance, CheckpointAnswer, CheckpointProposal } from "./checkpoint-schema";
import { foldTierEvent, type IntentionTierFields, NO_INTENTION_TIER, type RunTierFields } from "./fold-tiers";
import type { Action, ChildProposal, StoredEvent } from "./schema";
import type {
  ApprovalStatus,
  IntentionStatus,
  Judgment,
  MessageRole,
  RunStatus,
  UserMode,
} from "./vocabulary";
import { foldWork, type WorkView } from "./work-view";

/**
 * The session as a reader sees it, folded from its events. The browser's live view and replay use
 * this; the server's table projections are checked against it in tests. Pure: no I/O, no clock.
 */
export interface CycleView {
  id: string;
  approvalId: string | null;
  gate: { decision: string; reason: string } | null;
  index: number;
  thought: string;
  action: Action;
  exitCode: number | null;
  output: string | null;
  timedOut: boolean;
  error: string | null;
  durationMs: number | null;
  judgment: Judgment | null;
  judgedBy: string | null;
  judgmentReason: string | null;
  reflection: string | null;
  /** The contract's criteria as checked after this action (null: not checked). */
  checks: CriterionResult[] | null;
}

export interface IntentionView extends IntentionTierFields {
  id: string;
  runId: string;
  parentId: string | null;
  what: string;
  acceptance: string;
  depth: number;
  position: number;
  status: IntentionStatus;
  reason: string | null;
  childIds: string[];
  cycles: CycleView[];
  decisions: { decision: string; reason: string }[];
  contract: Criterion[];
  /** Model spend on this intention itself (children not included; see `rollUp`). */
  tokens: number;
  costUsd: number;
  /** The contract as checked when the children were integrated (null: not yet). */
  integrationChecks: CriterionResult[] | null;
  /** Its share of its parent's budget (null: none of its own; the root's is the run's). */
  budget: Allowance | null;
}

export interface ApprovalView {
  id: string;
  runId: string;
  intentionId: string;
  kind: string;
  thought: string;
  children: ChildProposal[];
  status: ApprovalStatus;
  decidedBy: string | null;
  reason: string | null;
  requestedSeq: number;
  requestedAt: string;
  decidedAt: string | null;
  command: string | null;
  editedCommand: string | null;
  binding: string | null;
  confirm: boolean;
  gateReason: string;
  /** Delegated to this member: only they (or an owner/admin) may answer. */
  assignee?: { userId: string; name: string } | null;
  proposal: CheckpointProposal | null;
  answer: CheckpointAnswer | null;
}

export interface RunView extends RunTierFields {
  id: string;
  task: string;
  mode: UserMode;
  model: { id: string; label: string; offline: boolean };
  status: RunStatus;
  reason: string | null;
  startedAt: string;
  endedAt: string | null;
  rootId: string | null;
  sandbox: { containerName: string; reused: boolean; durationMs: number } | null;
  intent: DiscoveredIntent | null;
  llmCalls: number;
  tokensIn: number;
  tokensOut: number;
  costUsd: number;
  /** Calls whose model has no configured price: the cost shown is then a lower bound. */
  unpricedCalls: number;
}

export interface MessageView {
  id: string;
  runId: string | null;
  role: MessageRole;
  text: string;
  at: string;
}

/** The session's terminal as the log tells it: open (by whom) or not. The output itself is not logged. */
export interface TerminalView {
  id: string;
  openedBy: string;
}

export interface SessionView {
  lastSeq: number;
  work: WorkView | null;
  terminal: TerminalView | null;
  runOrder: string[];
  runs: Record<string, RunView>;
  intentions: Record<string, IntentionView>;
  approvals: Record<string, ApprovalView>;
  messages: MessageView[];
}

export function emptySessionView(): SessionView {
  return {
    lastSeq: 0,
    work: null,
    terminal: null,
    runOrder: [],
    runs: {},
    intentions: {},
    approvals: {},
    messages: [],
  };
}

function findCycle(view: SessionView, intentionId: string, cycleId: string): CycleView | undefined {
  return view.intentions[intentionId]?.cycles.find((cycle) => cycle.id === cycleId);
}

/**
 * Applies one event in place and returns the same view. Events at or below `lastSeq` are ignored,
 * so a reader that receives an event twice (a reconnect racing the live stream) stays correct.
 */
export function applyEvent(view: SessionView, event: StoredEvent): SessionView {
  if (event.seq <= view.lastSeq) return view;
  view.lastSeq = event.seq;
  const body = event.body;
  switch (body.type) {
    case "message-posted":
      view.messages.push({
        id: body.messageId,
        runId: body.runId,
        role: body.role,
        text: body.text,
        at: event.at,
      });
      break;
    case "run-started":
      view.runOrder.push(body.runId);
      view.runs[body.runId] = {
        id: body.runId,
        task: body.task,
        mode: body.mode,
        model: body.model,
        status: "RUNNING",
        reason: null,
        startedAt: event.at,
        endedAt: null,
        rootId: null,
        sandbox: null,
        intent: null,
        llmCalls: 0,
        tokensIn: 0,
        tokensOut: 0,
        costUsd: 0,
        unpricedCalls: 0,
        tiers: null,
      };
      break;
    case "intent-discovered": {
      const run = view.runs[body.runId];
      if (run) run.intent = body.intent;
      break;
    }
    case "sandbox-ready": {
      const run = view.runs[body.runId];
      if (run)
        run.sandbox = { containerName: body.containerName, reused: body.reused, durationMs: body.durationMs };
      break;
    }
    case "intention-created": {
      view.intentions[body.intentionId] = {
        id: body.intentionId,
        runId: body.runId,
        parentId: body.parentId,
        what: body.what,
        acceptance: body.acceptance,
        depth: body.depth,
        position: body.position,
        status: "PENDING",
        reason: null,
        childIds: [],
        cycles: [],
        decisions: [],
        contract: [],
        integrationChecks: null,
        tokens: 0,
        costUsd: 0,
        budget: null,
        ...NO_INTENTION_TIER,
      };
      if (body.parentId) view.intentions[body.parentId]?.childIds.push(body.intentionId);
      const run = view.runs[body.runId];
      if (run && body.parentId === null) run.rootId = body.intentionId;
      break;
    }
    case "intention-status-changed": {
      const intention = view.intentions[body.intentionId];
      if (intention) {
        intention.status = body.status;
        intention.reason = body.reason;
      }
      break;
    }
    case "decision-made":
      view.intentions[body.intentionId]?.decisions.push({ decision: body.decision, reason: body.reason });
      break;
    case "approval-requested":
      view.approvals[body.approvalId] = {
        id: body.approvalId,
        runId: body.runId,
        intentionId: body.intentionId,
        kind: body.kind,
        thought: body.thought,
        children: body.children,
        status: "PENDING",
        decidedBy: null,
        reason: null,
        requestedSeq: event.seq,
        requestedAt: event.at,
        decidedAt: null,
        command: body.command,
        editedCommand: null,
        binding: body.binding,
        confirm: body.confirm,
        gateReason: body.reason,
        proposal: body.proposal,
        answer: null,
      };
      break;
    case "approval-decided": {
      const approval = view.approvals[body.approvalId];
      if (approval) {
        approval.status = body.decision === "approved" ? "APPROVED" : "REJECTED";
        approval.decidedBy = body.decidedBy.name;
        approval.reason = body.reason;
        approval.decidedAt = event.at;
        approval.editedCommand = body.command;
        approval.answer = body.answer;
      }
      break;
    }
    case "approval-assigned": {
      const approval = view.approvals[body.approvalId];
      if (approval) approval.assignee = body.assignee;
      break;
    }
    case "budget-split":
      for (const share of body.shares) {
        const intention = view.intentions[share.intentionId];
        if (intention) intention.budget = share.budget;
      }
      break;
    case "cycle-started":
      view.intentions[body.intentionId]?.cycles.push({
        id: body.cycleId,
        approvalId: body.approvalId,
        gate: body.gate,
        index: body.index,
        thought: body.thought,
        action: body.action,
        exitCode: null,
        output: null,
        timedOut: false,
        error: null,
        durationMs: null,
        judgment: null,
        judgedBy: null,
        judgmentReason: null,
        reflection: null,
        checks: null,
      });
      break;
    case "cycle-result": {
      const cycle = findCycle(view, body.intentionId, body.cycleId);
      if (cycle) {
        cycle.exitCode = body.exitCode;
        cycle.output = body.output;
        cycle.timedOut = body.timedOut;
        cycle.error = body.error;
        cycle.durationMs = body.durationMs;
      }
      break;
    }
    case "cycle-judged": {
      const cycle = findCycle(view, body.intentionId, body.cycleId);
      if (cycle) {
        cycle.judgment = body.judgment;
        cycle.judgedBy = body.judgedBy;
        cycle.judgmentReason = body.reason;
      }
      break;
    }
    case "cycle-reflected": {
      const cycle = findCycle(view, body.intentionId, body.cycleId);
      if (cycle) cycle.reflection = body.reflection;
      break;
    }
    case "contract-built": {
      const intention = view.intentions[body.intentionId];
      if (intention) intention.contract = body.criteria;
      break;
    }
    case "criteria-checked": {
      const intention = view.intentions[body.intentionId];
      if (body.cycleId === null) {
        if (intention) intention.integrationChecks = body.results;
      } else {
        const cycle = findCycle(view, body.intentionId, body.cycleId);
        if (cycle) cycle.checks = body.results;
      }
      break;
    }
    case "llm-called": {
      const spender = body.intentionId ? view.intentions[body.intentionId] : undefined;
      if (spender) {
        spender.tokens += body.tokensIn + body.tokensOut;
        spender.costUsd += body.costUsd ?? 0;
      }
      const run = view.runs[body.runId];
      if (run) {
        run.llmCalls += 1;
        run.tokensIn += body.tokensIn;
        run.tokensOut += body.tokensOut;
        if (body.costUsd === null) run.unpricedCalls += body.error === null ? 1 : 0;
        else run.costUsd += body.costUsd;
      }
      break;
    }
    case "run-ended": {
      const run = view.runs[body.runId];
      if (run) {
        run.status = body.status;
        run.reason = body.reason;
        run.endedAt = event.at;
      }
      break;
    }
    case "work-saved":
    case "work-merged":
    case "work-discarded":
      view.work = foldWork(view.work, body);
      break;
    case "terminal-opened":
      view.terminal = { id: body.terminalId, openedBy: body.by.name };
      break;
    case "terminal-closed":
      if (view.terminal?.id === body.terminalId) view.terminal = null;
      break;
    case "terminal-typed":
      // Who typed is kept in the log for the record; the page does not show it.
      break;
    case "tiers-configured":
    case "tier-escalated":
    case "context-compressed":
      foldTierEvent(view, body);
      break;
    case "trace-recorded":
    case "workspace-changed":
      // The ledger is read from the log by `recordsFromEvents`, the patches by the replay's file view.
      break;
    default: {
      const unreachable: never = body;
      return unreachable;
    }
  }
  return view;
}

export function foldEvents(
  events: readonly StoredEvent[],
  view: SessionView = emptySessionView(),
): SessionView {
  for (const event of events) applyEvent(view, event);
  return view;
}

export { rollUp } from "./roll-up";
