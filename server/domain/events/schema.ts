import { z } from "zod";
import * as approval from "@/server/domain/events/bodies/approval";
import { CheckRanBody, ChecksBaselinedBody } from "@/server/domain/events/bodies/checks";
import { ContextRestoredBody } from "@/server/domain/events/bodies/context";
import * as cycle from "@/server/domain/events/bodies/cycle";
import * as editorFiles from "@/server/domain/events/bodies/editor-files";
import * as environment from "@/server/domain/events/bodies/environment";
import * as intention from "@/server/domain/events/bodies/intention";
import * as qa from "@/server/domain/events/bodies/qa";
import * as reasoning from "@/server/domain/events/bodies/reasoning";
import * as roles from "@/server/domain/events/bodies/roles";
import * as run from "@/server/domain/events/bodies/run";
import { SandboxDescribedBody } from "@/server/domain/events/bodies/sandbox";
import * as workspace from "@/server/domain/events/bodies/workspace";
import { ContextCompressedBody, TierEscalatedBody, TiersConfiguredBody } from "./tier-schema";
import { TraceRecordedBody } from "./trace-schema";

export {
  Action,
  ChildProposal,
  type ChildProposalInput,
  GateRecord,
  ToolCallBody,
} from "@/server/domain/events/bodies/shared";

/**
 * The one event union. Every change to a session is one of these, appended to the session's log
 * with a sequence number (see `StoredEvent`). Server projections, the live view and replay all fold
 * the same events, so they cannot disagree.
 *
 * Ids: `sessionId` is implied by the log the event lives in; `runId` names one task given to the
 * agent; `intentionId` a node of the intention tree; `cycleId` one thought→action→result→judgment
 * attempt; `approvalId` one question waiting for a person.
 */

export const EventBody = z.discriminatedUnion("type", [
  /** What a cycle wrote, as Agent Trace records (the trace ledger, seed 003). */
  TraceRecordedBody,
  /** Model tiers of the run, an intention's escalation, a compressed request (see tier-schema.ts). */
  TiersConfiguredBody,
  TierEscalatedBody,
  ContextCompressedBody,
  /** A person put an item a compression left out back into an intention's requests (bodies/context.ts). */
  ContextRestoredBody,
  run.MessagePostedBody,
  run.RunStartedBody,
  run.RunRoutedBody,
  /** The server resumed the run after being down (bodies/run.ts). */
  run.RunResumedBody,
  run.AnswerToolCalledBody,
  run.IntentDiscoveredBody,
  run.SandboxReadyBody,
  /** The sandbox's toolchain versions and resource limits (bodies/sandbox.ts). */
  SandboxDescribedBody,
  intention.IntentionCreatedBody,
  intention.IntentionStatusChangedBody,
  intention.IntentSelectedBody,
  intention.DecisionMadeBody,
  intention.ContractBuiltBody,
  intention.CriteriaCheckedBody,
  /** A contract check's command, run through the tool dispatch (bodies/checks.ts). */
  CheckRanBody,
  /** Red before green: the intention's checks run once before any work (bodies/checks.ts). */
  ChecksBaselinedBody,
  approval.ApprovalRequestedBody,
  approval.ApprovalDecidedBody,
  intention.BudgetSplitBody,
  approval.ApprovalAssignedBody,
  approval.RunPreApprovedBody,
  cycle.CycleStartedBody,
  cycle.ToolCalledBody,
  cycle.CycleResultBody,
  cycle.CycleJudgedBody,
  cycle.CycleReflectedBody,
  workspace.WorkspaceChangedBody,
  cycle.LlmCalledBody,
  /** The reasoning switch at work (warmup, micro reflections) and correction prompts (bodies/reasoning.ts). */
  reasoning.ReasoningRecordedBody,
  reasoning.CorrectionAppliedBody,
  workspace.WorkSavedBody,
  workspace.WorkMergedBody,
  workspace.WorkDiscardedBody,
  workspace.TerminalOpenedBody,
  workspace.TerminalTypedBody,
  workspace.TerminalClosedBody,
  workspace.FileEditedBody,
  /** Advisory QA on an intention, and the run's delivery gate (see bodies/qa.ts). */
  qa.QaReportedBody,
  qa.DeliveryReportedBody,
  editorFiles.FileRenamedBody,
  editorFiles.FileDeletedBody,
  editorFiles.FolderRenamedBody,
  editorFiles.FolderDeletedBody,
  /** Full mode's Librarian, Critic and Chaos at work (see bodies/roles.ts). */
  roles.RoleReportedBody,
  /** The sandbox's network per phase, the setup command, connections through the egress proxy (bodies/environment.ts). */
  environment.EgressPhaseSetBody,
  environment.SetupStartedBody,
  environment.SetupRanBody,
  environment.EgressConnectionBody,
  run.RunEndedBody,
]);
/** An event as read back (defaults applied). */
export type EventBody = z.infer<typeof EventBody>;
/** An event as written: optional fields may be left out, the log fills their defaults when it parses. */
export type EventInput = z.input<typeof EventBody>;
export type EventType = EventBody["type"];
export type EventOf<T extends EventType> = Extract<EventBody, { type: T }>;

/** An event as stored: the body plus its place in the session's log. */
export const StoredEvent = z.object({
  seq: z.number().int().positive(),
  at: z.string(),
  body: EventBody,
});
export type StoredEvent = z.infer<typeof StoredEvent>;

/** The run id an event belongs to, if any (indexed in the table for per-run queries). */
export function runIdOf(body: EventBody): string | null {
  return "runId" in body ? body.runId : null;
}
