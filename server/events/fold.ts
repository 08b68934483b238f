import type { Criterion, CriterionResult } from "@/server/contract/criteria";
import type { TestResults } from "@/server/contract/test-runs/results";
import type { DiscoveredIntent } from "@/server/riva/discovery/discovered-intent";
import { type AnswerFields, foldAnswer } from "./answer-view";
import type { SandboxResources, ToolchainVersion } from "./bodies/sandbox";
import type { Allowance, CheckpointAnswer, CheckpointProposal } from "./checkpoint-schema";
import {
  grantRun,
  grantRunPreApprovals,
  type RunPreApproval,
  recordDecision,
  requestedApproval,
  type ToolCalledView,
  toolCalled,
} from "./fold-approvals";
import { foldCycleEvent } from "./fold-cycles";
import { type EnvironmentView, emptyEnvironmentView, foldEnvironment } from "./fold-environment";
import { foldQaEvent, type IntentionQaFields, NO_QA, type RunDeliveryFields } from "./fold-qa";
import { foldReasoningEvent, noRunReasoning, type RunReasoningFields } from "./fold-reasoning";
import { foldRoleEvent, type IntentionRoleFields, noIntentionRoles } from "./fold-roles";
import { foldTierEvent, type IntentionTierFields, NO_INTENTION_TIER, type RunTierFields } from "./fold-tiers";
import { foldModelCall } from "./roll-up";
import type { Action, ChildProposal, EventOf, StoredEvent, ToolCallBody } from "./schema";
import type {
  ApprovalStatus,
  EvidenceKind,
  IntentionStatus,
  Judgment,
  MessageRole,
  ReasoningSwitch,
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
  /** A test command's counts and failing tests, when its output showed them. */
  tests?: TestResults | null;
  judgment: Judgment | null;
  judgedBy: string | null;
  judgmentReason: string | null;
  reflection: string | null;
  /** The contract's criteria as checked after this action (null: not checked). */
  checks: CriterionResult[] | null;
  /**
   * The intention's first cycle writing the contract's generated test (test first): a red test after
   * it is expected, so it is not counted as a miss by the decomposition triggers.
   */
  testFirst: boolean;
  /**
   * Cut off by a crash (`cycle-result`'s `interrupted`): not an attempt that failed, so it counts for
   * no limit and no decomposition trigger.
   */
  interrupted: boolean;
}

export interface IntentionView extends IntentionTierFields, IntentionQaFields, IntentionRoleFields {
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
  /** Who wrote the contract, and the proposed checks left out with why (see `contract-built`). */
  contractBy: {
    source: "acceptance" | "model" | "chaos" | "request" | "detected-tests";
    dropped: string[];
    /** Contract indexes that are the project's detected tests, added as a fallback (red first, or nothing). */
    detectedTests?: number[];
    /** `atCycle`: the index of the cycle that writes it (0: test first; later for a Chaos test). */
    generatedTest: { path: string; content: string; atCycle: number } | null;
  } | null;
  /** Model spend on this intention itself (children not included; see `rollUp`). */
  tokens: number;
  costUsd: number;
  /** The contract as checked when the children were integrated (null: not yet). */
  integrationChecks: CriterionResult[] | null;
  /** Red before green (issue #15): the checks run before any work; absent until they ran. */
  baseline?: { results: { index: number; result: CriterionResult }[]; skipped: number[] };
  /** VERIFIED: the kind of evidence it rests on (absent in logs from before issue #15). */
  evidence?: EvidenceKind;
  /** evidence "accepted-by-person": the person's name. */
  acceptedBy?: string;
  /** Its share of its parent's budget (null: none of its own; the root's is the run's). */
  budget: Allowance | null;
  /** Read-only tool calls the model made before its actions (tool-called events). */
  reads: ToolCalledView[];
  /** owned_scope globs of a decomposition child, and the person's approval of them (approved-scopes.ts). */
  ownedScope: string[];
  scopeApproval: { approvalId: string; binding: string; approvedBy: string } | null;
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
  /** Who answered, by id: "auto" when the auto checkpoint approved it (never a person's approval). */
  decidedById?: string;
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
  /** kind "tool": the call that runs once approved, and the person's edit of it. */
  call: ToolCallBody | null;
  editedCall: ToolCallBody | null;
  /** kind "tool": the file before the change, the staged diff of a commit, … */
  preview: string | null;
  /** A command cut off by a crash: how long it ran and what it printed before (issue #15.7). */
  interruption?: EventOf<"approval-requested">["interruption"] | null;
  /** A check's card outside any cycle (before any work, or at integration): never run as an action. */
  checkPhase?: "baseline" | "integration";
  /** kind "decomposition": the check plan's version the person approved (null: none recorded). */
  checkPlanVersion?: number | null;
}

/**
 * `route` and `answerTools` (the answer path) are folded by `answer-view.ts`, tiers by `fold-tiers.ts`,
 * reasoning and corrections by `fold-reasoning.ts`, delivery by `fold-qa.ts`.
 */
export interface RunView extends AnswerFields, RunTierFields, RunReasoningFields, RunDeliveryFields {
  id: string;
  task: string;
  mode: UserMode;
  reasoning: ReasoningSwitch;
  model: { id: string; label: string; offline: boolean; provider?: string };
  /** The project intent the run selected last (select_active_intent); null: none. */
  selectedIntent: { intentId: string; ownedScope: string[]; intentionId: string } | null;
  /** The model overrides the run was started with (run-started's `startedWith`; null in older logs). */
  startedWith: Record<string, unknown> | null;
  status: RunStatus;
  reason: string | null;
  startedAt: string;
  endedAt: string | null;
  /** Time the server was down while the run was working (`run-resumed`), part of its wall clock. */
  downtimeMs?: number;
  rootId: string | null;
  sandbox: {
    containerName: string;
    reused: boolean;
    durationMs: number;
    /** runc or runsc (gVisor); null in logs written before projects could choose. */
    runtime?: "runc" | "runsc" | null;
    image?: string;
  } | null;
  /** The sandbox's toolchain versions and limits, once probed (`sandbox-described`). */
  sandboxInfo: { toolchains: ToolchainVersion[]; resources: SandboxResources | null } | null;
  intent: DiscoveredIntent | null;
  llmCalls: number;
  tokensIn: number;
  tokensOut: number;
  costUsd: number;
  /** Calls whose model has no configured price: the cost shown is then a lower bound. */
  unpricedCalls: number;
  /** Categories a person pre-approved for the rest of this run (fold-approvals.ts). */
  preApproved: RunPreApproval[];
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
  /** The sandbox's network and setup (absent from views folded before they existed: read with `?? `). */
  environment?: EnvironmentView;
  /** Changes people made from the Files card (saves, new files, renames, deletes): open trees follow it. */
  personFileChanges: number;
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
