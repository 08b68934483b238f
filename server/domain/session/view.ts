import type { Criterion, CriterionResult } from "@/server/domain/contract/criteria";
import type { TestResults } from "@/server/domain/contract/test-results";
import type { QaReport } from "@/server/domain/events/bodies/qa";
import type { CorrectionKind, ReasoningKind } from "@/server/domain/events/bodies/reasoning";
import type { RoleReportedBody } from "@/server/domain/events/bodies/roles";
import type { SandboxResources, ToolchainVersion } from "@/server/domain/events/bodies/sandbox";
import type {
  Allowance,
  CheckpointAnswer,
  CheckpointProposal,
} from "@/server/domain/events/checkpoint-schema";
import type { Action, ChildProposal, EventOf, ToolCallBody } from "@/server/domain/events/schema";
import type { CompressedItem, TierRef } from "@/server/domain/events/tier-schema";
import type { DiscoveredIntent } from "@/server/domain/intent/discovered-intent";
import type { PreApprovableCategory } from "@/server/domain/policy/checkpoints";
import type { DeliveryGate, DeliveryReport } from "@/server/domain/policy/delivery-gate";
import type { ReasoningOutcome } from "@/server/domain/policy/reasoning-outcome";
import type { UserSettings } from "@/server/domain/settings/user-config";
import type {
  ApprovalStatus,
  EvidenceKind,
  IntentionStatus,
  Judgment,
  MessageRole,
  ReasoningSwitch,
  RunStatus,
  UserMode,
} from "@/server/domain/vocabulary/session";
import type { AnswerFields } from "./answer-view";
import type { EnvironmentView } from "./fold-environment";
import type { RunGuardView } from "./guard-view";
import type { WorkView } from "./work-view";

/**
 * The session as a reader sees it: the types the fold (`fold.ts` and its `fold-*.ts` parts) builds
 * from the event log. The browser's live view and replay, the engine and the tRPC router all read
 * these; the server's table projections are checked against them in tests. Kept apart from the
 * fold's functions so the parts can share them without importing each other.
 */

/** One action cycle of an intention: thought, action, result, judgment, reflection, checks. */
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
  checkPhase?: "baseline" | "integration" | "guard";
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
  /**
   * The person's CLI user file's server keys sent with the run (run-started's `cliConfig`), and what of
   * it was ignored as looser; null when the run was started without one.
   */
  cliConfig: {
    settings: UserSettings;
    ignored: { key: string; value: string; reason: string }[];
  } | null;
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
  /** The regression guard's runs (contract/regression-guard.ts); absent until it first ran. */
  guard?: RunGuardView;
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
  /** Where the sandbox stands on its Docker host (absent from older views and single-engine sessions). */
  sandboxHost?: SandboxHostView;
  /** Changes people made from the Files card (saves, new files, renames, deletes): open trees follow it. */
  personFileChanges: number;
  runOrder: string[];
  runs: Record<string, RunView>;
  intentions: Record<string, IntentionView>;
  approvals: Record<string, ApprovalView>;
  messages: MessageView[];
}

/** A read the model made inside its act turn, as the log shows it. */
export interface ToolCalledView {
  /** The event's sequence number: a stable key. */
  seq: number;
  /** The cycle the read led to (its index among the intention's cycles). */
  cycleIndex: number;
  tool: string;
  input: string;
  status: string;
  output: string;
  durationMs: number;
}

/** A category a person pre-approved for the rest of one run, on a tool approval's card or the session bar. */
export interface RunPreApproval {
  category: PreApprovableCategory;
  grantedBy: string;
  /** The approval whose answer granted it (null: granted from the session bar). */
  approvalId: string | null;
}

export interface QaReportView {
  reviewId: string;
  seq: number;
  at: string;
  modelId: string;
  offline: boolean;
  /** null: the review could not be made (`error`). */
  report: QaReport | null;
  error: string | null;
  tools: string[];
  /** What the reviewer read on the way (`fs.read src/a.ts`). */
  reads: string[];
}

export interface IntentionQaFields {
  /** Advisory reviews of this intention, oldest first. */
  qaReports: QaReportView[];
}

export interface DeliveryReportView {
  seq: number;
  state: DeliveryReport["state"];
  source: DeliveryReport["source"];
  reason: string;
  /** False when the gate was already DONE (or the source is advisory): the report changed nothing. */
  moved: boolean;
  /** The delivery check's view: the model's answer, what it says is missing, who answered. */
  modelState: DeliveryReport["state"] | null;
  missing: string[];
  modelId: string | null;
  fallback: string | null;
}

export interface RunDeliveryFields {
  /** Seed 001 §2.5: NEEDS_WORK until an authoritative source says DONE; DONE is never undone. */
  delivery: DeliveryGate;
  deliveryReports: DeliveryReportView[];
}

export interface ReasoningEntry {
  seq: number;
  kind: ReasoningKind;
  intentionId: string | null;
  cycleIndex: number | null;
  text: string;
  outcome: ReasoningOutcome;
  modelId: string;
  offline: boolean;
}

export interface CorrectionEntry {
  seq: number;
  intentionId: string | null;
  stage: string;
  kind: CorrectionKind;
  prompt: string;
  problem: string;
}

export interface RunReasoningFields {
  /** Warmups and reflections in log order. */
  reasoningLog: ReasoningEntry[];
  /** Correction prompts sent with retries, in log order. */
  corrections: CorrectionEntry[];
}

export type RoleReport = Omit<RoleReportedBody, "type" | "runId" | "intentionId">;

export interface IntentionRoleFields {
  roles: RoleReport[];
}

/** Where an intention's current tier began: its cycles and spend at that moment (zero for tier 0). */
export interface TierStart {
  cycles: number;
  tokens: number;
  costUsd: number;
}

export interface IntentionTierFields {
  /**
   * The tier it works on after an escalation; null: tier 0 (or the run has no tiers). `earlier`: the
   * tiers it left, each with the index of its first cycle, so every attempt can be named by its tier.
   */
  tier: {
    index: number;
    name: string;
    since: TierStart;
    earlier: { index: number; name: string; fromCycle: number }[];
    /** Why it last climbed, with the rule that fired. */
    reason: string;
  } | null;
  /**
   * How its latest model request was compressed (null: nothing was left out yet): the counts, the
   * triggers and the items (the first 200), which the UI lists with a Restore button each.
   */
  compressed: {
    omitted: number;
    shortened: number;
    collapsed: number;
    keptChars: number;
    triggers: string[];
    dropped: CompressedItem[];
  } | null;
  /** Items people restored: its later requests include them in full (build-context.ts). */
  restored: RestoredItemView[];
}

export interface RestoredItemView {
  id: string;
  item: string;
  label: string | null;
  sha256: string;
  by: string;
}

export interface RunTierFields {
  /** The run's model tiers, cheap to strong (null: the run has one model). */
  tiers: { escalation: string; tiers: TierRef[] } | null;
}

/** A session's snapshots and a lost sandbox (several Docker hosts, README "Docker hosts"). */
export interface SandboxHostView {
  /** The newest snapshot (taken after a VERIFIED intention); a restart starts from it. */
  lastSnapshot: { ref: string; title: string; seq: number } | null;
  /** Set while the sandbox is lost (its host stopped answering); cleared by a restart. */
  lost: { host: string; message: string; at: string; unsaved: string[] } | null;
  /** The last restart: from which host, by whom, from which snapshot. */
  restarted: { fromHost: string; toHost: string; by: string; snapshot: string | null; at: string } | null;
  /** The last time a lost sandbox came back with its host (cleared by a later restart, and the reverse). */
  reconnected: { host: string; at: string } | null;
}

export type { RunGuardView } from "./guard-view";
