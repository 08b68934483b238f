import type { StoredEvent } from "@/server/domain/events/schema";
import type { SessionView } from "@/server/domain/session/view";
import { foldAnswer } from "./answer-view";
import {
  grantRun,
  grantRunPreApprovals,
  recordDecision,
  requestedApproval,
  toolCalled,
} from "./fold-approvals";
import { foldCycleEvent } from "./fold-cycles";
import { emptyEnvironmentView, foldEnvironment } from "./fold-environment";
import { foldQaEvent, NO_QA } from "./fold-qa";
import { foldReasoningEvent, noRunReasoning } from "./fold-reasoning";
import { foldRoleEvent, noIntentionRoles } from "./fold-roles";
import { foldTierEvent, NO_INTENTION_TIER } from "./fold-tiers";
import { foldModelCall } from "./roll-up";
import { foldWork } from "./work-view";

export function emptySessionView(): SessionView {
  return {
    lastSeq: 0,
    work: null,
    terminal: null,
    environment: emptyEnvironmentView(),
    personFileChanges: 0,
    runOrder: [],
    runs: {},
    intentions: {},
    approvals: {},
    messages: [],
  };
}

/** Applies one event in place and returns the same view. Events at or below `lastSeq` are ignored,
 *  so a reader that receives an event twice (a reconnect racing the live stream) stays correct. */
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
        reasoning: body.reasoning,
        route: null,
        answerTools: [],
        model: body.model,
        startedWith: body.startedWith ?? null,
        selectedIntent: null,
        status: "RUNNING",
        reason: null,
        startedAt: event.at,
        endedAt: null,
        rootId: null,
        sandbox: null,
        sandboxInfo: null,
        intent: null,
        llmCalls: 0,
        tokensIn: 0,
        tokensOut: 0,
        costUsd: 0,
        unpricedCalls: 0,
        tiers: null,
        ...noRunReasoning(),
        preApproved: [],
        ...NO_QA.run(),
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
        run.sandbox = {
          containerName: body.containerName,
          reused: body.reused,
          durationMs: body.durationMs,
          runtime: body.runtime ?? null,
          image: body.image,
        };
      break;
    }
    case "sandbox-described": {
      const run = view.runs[body.runId];
      if (run) run.sandboxInfo = { toolchains: body.toolchains, resources: body.resources };
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
        contractBy: null,
        integrationChecks: null,
        tokens: 0,
        costUsd: 0,
        budget: null,
        reads: [],
        ownedScope: body.ownedScope,
        scopeApproval: body.scopeApproval,
        ...NO_INTENTION_TIER,
        ...noIntentionRoles(),
        ...NO_QA.intention(),
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
        if (body.evidence) intention.evidence = body.evidence;
        if (body.acceptedBy) intention.acceptedBy = body.acceptedBy.name;
      }
      break;
    }
    case "checks-baselined": {
      const intention = view.intentions[body.intentionId];
      if (intention) intention.baseline = { results: body.results, skipped: body.skipped };
      break;
    }
    case "decision-made":
      view.intentions[body.intentionId]?.decisions.push({ decision: body.decision, reason: body.reason });
      break;
    case "approval-requested":
      view.approvals[body.approvalId] = requestedApproval(body, event);
      break;
    case "approval-decided": {
      const approval = view.approvals[body.approvalId];
      if (approval) recordDecision(approval, body, event.at);
      grantRunPreApprovals(view, approval, body);
      break;
    }
    case "tool-called":
      toolCalled(view.intentions[body.intentionId], body, event.seq);
      break;
    case "run-pre-approved":
      grantRun(view, body.runId, body.categories, body.grantedBy.name, null);
      break;
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
    case "cycle-result":
    case "cycle-judged":
    case "cycle-reflected":
    case "contract-built":
    case "criteria-checked":
      foldCycleEvent(view, body);
      break;
    case "llm-called":
      foldModelCall(view, body);
      break;
    case "run-routed":
    case "answer-tool-called":
      foldAnswer(view.runs[body.runId], body);
      break;
    case "run-resumed": {
      const run = view.runs[body.runId];
      if (run && body.counted) run.downtimeMs = (run.downtimeMs ?? 0) + body.downMs;
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
    case "egress-phase-set":
    case "setup-started":
    case "setup-ran":
    case "egress-connection":
      view.environment ??= emptyEnvironmentView();
      foldEnvironment(view.environment, body, event.seq);
      break;
    case "terminal-opened":
      view.terminal = { id: body.terminalId, openedBy: body.by.name };
      break;
    case "terminal-closed":
      if (view.terminal?.id === body.terminalId) view.terminal = null;
      break;
    case "tiers-configured":
    case "tier-escalated":
    case "context-compressed":
    case "context-restored":
      foldTierEvent(view, body);
      break;
    case "reasoning-recorded":
    case "correction-applied":
      foldReasoningEvent(view, body, event.seq);
      break;
    case "qa-reported":
    case "delivery-reported":
      foldQaEvent(view, body, event);
      break;
    case "role-reported":
      foldRoleEvent(view, body);
      break;
    case "file-edited":
    case "file-renamed":
    case "file-deleted":
    case "folder-renamed":
    case "folder-deleted":
      view.personFileChanges += 1;
      break;
    case "intent-selected": {
      const run = view.runs[body.runId];
      if (run)
        run.selectedIntent = {
          intentId: body.intentId,
          ownedScope: body.ownedScope,
          intentionId: body.intentionId,
        };
      break;
    }
    case "terminal-typed":
    case "trace-recorded":
    case "workspace-changed":
    case "check-ran":
      // Kept in the log: who typed (never what), the ledger (`recordsFromEvents`), the replay's files,
      // each check command's pass through the dispatch (its verdict is folded from criteria-checked).
      break;
    default:
      return body satisfies never; // every event type is handled above
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
