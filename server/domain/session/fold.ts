import type { EventType, StoredEvent } from "@/server/domain/events/schema";
import type { SandboxHostView, SessionView } from "@/server/domain/session/view";
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
import type { EventFolds, FoldOf } from "./fold-handler";
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
  (FOLDS[event.body.type] as FoldOf<EventType>)(view, event.body, event);
  return view;
}

const sandboxHostOf = (view: SessionView): SandboxHostView => {
  view.sandboxHost ??= { lastSnapshot: null, lost: null, restarted: null, reconnected: null };
  return view.sandboxHost;
};

/** A person's file and folder operations count toward the work's changes; their paths are in the log. */
const countPersonFileChange = (view: SessionView) => {
  view.personFileChanges += 1;
};

const foldWorkEvent = (view: SessionView, body: Parameters<typeof foldWork>[1]) => {
  view.work = foldWork(view.work, body);
};

const foldEnvironmentEvent = (
  view: SessionView,
  body: Parameters<typeof foldEnvironment>[1],
  event: StoredEvent,
) => {
  view.environment ??= emptyEnvironmentView();
  foldEnvironment(view.environment, body, event.seq);
};

/**
 * Kept in the log, not in the view: who typed in the terminal (never what), the trace ledger
 * (`recordsFromEvents`), the replay's files, each check command's pass through the dispatch (its
 * verdict is folded from criteria-checked).
 */
const keptInTheLogOnly = () => {};

/**
 * How each event type changes the view, one entry per type: TypeScript refuses the build while an
 * event type of the union (server/domain/events/schema.ts) has no entry here. Family helpers
 * (fold-cycles.ts, fold-approvals.ts, …) hold the longer ones.
 */
const FOLDS: EventFolds = {
  "message-posted": (view, body, event) => {
    view.messages.push({
      id: body.messageId,
      runId: body.runId,
      role: body.role,
      text: body.text,
      at: event.at,
    });
  },
  "run-started": (view, body, event) => {
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
      cliConfig: body.cliConfig ?? null,
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
  },
  "intent-discovered": (view, body) => {
    const run = view.runs[body.runId];
    if (run) run.intent = body.intent;
  },
  "sandbox-ready": (view, body) => {
    const run = view.runs[body.runId];
    if (run)
      run.sandbox = {
        containerName: body.containerName,
        reused: body.reused,
        durationMs: body.durationMs,
        runtime: body.runtime ?? null,
        image: body.image,
      };
  },
  "sandbox-described": (view, body) => {
    const run = view.runs[body.runId];
    if (run) run.sandboxInfo = { toolchains: body.toolchains, resources: body.resources };
  },
  "workspace-snapshotted": (view, body, event) => {
    sandboxHostOf(view).lastSnapshot = { ref: body.ref, title: body.title, seq: event.seq };
  },
  "sandbox-lost": (view, body, event) => {
    sandboxHostOf(view).lost = {
      host: body.host,
      message: body.message,
      at: event.at,
      unsaved: body.unsaved,
    };
  },
  "sandbox-restarted": (view, body, event) => {
    const host = sandboxHostOf(view);
    host.lost = null;
    host.reconnected = null;
    host.restarted = {
      fromHost: body.fromHost,
      toHost: body.toHost,
      by: body.by.name,
      snapshot: body.snapshot,
      at: event.at,
    };
  },
  "sandbox-reconnected": (view, body, event) => {
    const host = sandboxHostOf(view);
    host.lost = null;
    host.restarted = null;
    host.reconnected = { host: body.host, at: event.at };
  },
  "intention-created": (view, body) => {
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
  },
  "intention-status-changed": (view, body) => {
    const intention = view.intentions[body.intentionId];
    if (intention) {
      intention.status = body.status;
      intention.reason = body.reason;
      if (body.evidence) intention.evidence = body.evidence;
      if (body.acceptedBy) intention.acceptedBy = body.acceptedBy.name;
    }
  },
  "checks-baselined": (view, body) => {
    const intention = view.intentions[body.intentionId];
    if (intention) intention.baseline = { results: body.results, skipped: body.skipped };
  },
  "regression-guard-checked": (view, body) => {
    const run = view.runs[body.runId];
    if (!run) return;
    const guard = run.guard
      ? { ...run.guard }
      : {
          command: body.command,
          before: null,
          after: null,
          afters: [],
          repairsAllowed: 0,
          repairs: [],
        };
    guard.command = body.command;
    if (body.phase === "before") {
      guard.before = body.result;
      guard.repairsAllowed = body.repairs ?? 0;
    } else {
      guard.after = body.result;
      guard.afters = [...guard.afters, body.result];
    }
    run.guard = guard;
  },
  "regression-guard-repair": (view, body) => {
    const run = view.runs[body.runId];
    const cyclesBefore = view.intentions[body.intentionId]?.cycles.length ?? 0;
    if (run?.guard)
      run.guard = { ...run.guard, repairs: [...run.guard.repairs, { reason: body.reason, cyclesBefore }] };
  },
  "decision-made": (view, body) => {
    view.intentions[body.intentionId]?.decisions.push({ decision: body.decision, reason: body.reason });
  },
  "approval-requested": (view, body, event) => {
    view.approvals[body.approvalId] = requestedApproval(body, event);
  },
  "approval-decided": (view, body, event) => {
    const approval = view.approvals[body.approvalId];
    if (approval) recordDecision(approval, body, event.at);
    grantRunPreApprovals(view, approval, body);
  },
  "tool-called": (view, body, event) => {
    toolCalled(view.intentions[body.intentionId], body, event.seq);
  },
  "run-pre-approved": (view, body) => {
    grantRun(view, body.runId, body.categories, body.grantedBy.name, null);
  },
  "approval-assigned": (view, body) => {
    const approval = view.approvals[body.approvalId];
    if (approval) approval.assignee = body.assignee;
  },
  "budget-split": (view, body) => {
    for (const share of body.shares) {
      const intention = view.intentions[share.intentionId];
      if (intention) intention.budget = share.budget;
    }
  },
  "cycle-started": foldCycleEvent,
  "cycle-result": foldCycleEvent,
  "cycle-judged": foldCycleEvent,
  "cycle-reflected": foldCycleEvent,
  "contract-built": foldCycleEvent,
  "criteria-checked": foldCycleEvent,
  "llm-called": foldModelCall,
  "run-routed": (view, body) => foldAnswer(view.runs[body.runId], body),
  "answer-tool-called": (view, body) => foldAnswer(view.runs[body.runId], body),
  "run-resumed": (view, body) => {
    const run = view.runs[body.runId];
    if (run && body.counted) run.downtimeMs = (run.downtimeMs ?? 0) + body.downMs;
  },
  "run-ended": (view, body, event) => {
    const run = view.runs[body.runId];
    if (run) {
      run.status = body.status;
      run.reason = body.reason;
      run.endedAt = event.at;
    }
  },
  "work-saved": foldWorkEvent,
  "work-merged": foldWorkEvent,
  "work-discarded": foldWorkEvent,
  "work-pushed": foldWorkEvent,
  "work-push-refused": foldWorkEvent,
  "pull-request-opened": foldWorkEvent,
  "egress-phase-set": foldEnvironmentEvent,
  "setup-started": foldEnvironmentEvent,
  "setup-ran": foldEnvironmentEvent,
  "egress-connection": foldEnvironmentEvent,
  "egress-interrupted": foldEnvironmentEvent,
  "terminal-opened": (view, body) => {
    view.terminal = { id: body.terminalId, openedBy: body.by.name };
  },
  "terminal-closed": (view, body) => {
    if (view.terminal?.id === body.terminalId) view.terminal = null;
  },
  "tiers-configured": foldTierEvent,
  "tier-escalated": foldTierEvent,
  "context-compressed": foldTierEvent,
  "context-restored": foldTierEvent,
  "reasoning-recorded": (view, body, event) => foldReasoningEvent(view, body, event.seq),
  "correction-applied": (view, body, event) => foldReasoningEvent(view, body, event.seq),
  "qa-reported": foldQaEvent,
  "delivery-reported": foldQaEvent,
  "role-reported": foldRoleEvent,
  "file-edited": countPersonFileChange,
  "file-renamed": countPersonFileChange,
  "file-deleted": countPersonFileChange,
  "folder-renamed": countPersonFileChange,
  "folder-deleted": countPersonFileChange,
  "intent-selected": (view, body) => {
    const run = view.runs[body.runId];
    if (run)
      run.selectedIntent = {
        intentId: body.intentId,
        ownedScope: body.ownedScope,
        intentionId: body.intentionId,
      };
  },
  "terminal-typed": keptInTheLogOnly,
  "trace-recorded": keptInTheLogOnly,
  "workspace-changed": keptInTheLogOnly,
  "check-ran": keptInTheLogOnly,
};

export function foldEvents(
  events: readonly StoredEvent[],
  view: SessionView = emptySessionView(),
): SessionView {
  for (const event of events) applyEvent(view, event);
  return view;
}

export { rollUp } from "./roll-up";
