import { CHECK_PLAN_VERSION } from "@/server/domain/contract/child-checks";
import { UserFacingError } from "@/server/domain/errors";
import type { CheckpointAnswerInput } from "@/server/domain/events/checkpoint-schema";
import {
  ChildProposal,
  type ChildProposalInput,
  type EventInput,
  type ToolCallBody,
} from "@/server/domain/events/schema";
import type { PreApprovableCategory } from "@/server/domain/policy/checkpoints";
import type { ApprovalView, SessionView } from "@/server/domain/session/view";
import { scopeGlobProblem } from "@/server/intents/project-intent";
import { checkRunPreApproval } from "@/server/policy/approval/run-pre-approvals";
import { childIntentions } from "@/server/riva/decide/children";
import { checkEditedCall } from "@/server/riva/decide/tool-approval";
import { resolveCheckpointAnswer } from "./checkpoint-answers";

/**
 * A person's answer to an approval, checked against the folded log and turned into the events it
 * appends: the decision (with an edited command or call, run pre-approvals, a checkpoint's answer)
 * and, for an approved decomposition, its children. Bad input is a UserFacingError and appends nothing.
 */

export interface Actor {
  userId: string;
  name: string;
}

export interface DecideInput {
  sessionId: string;
  approvalId: string;
  decision: "approved" | "rejected";
  reason: string | null;
  /** Children as edited by the person; when absent, the proposal is approved as it was. */
  children?: ChildProposalInput[];
  /** A command approval's command as edited by the person; when absent, it runs as proposed. */
  command?: string;
  /** A tool approval's call as edited by the person (e.g. a write's new content); absent: as proposed. */
  call?: ToolCallBody;
  /** Seed 004's "abort": reject the action and end the run (STOPPED by this person). */
  abort?: boolean;
  /** A tool approval's category, pre-approved for the rest of its run (run-pre-approvals.ts). */
  preApproveRun?: PreApprovableCategory[];
  /** A judgment question's verdict or an intention budget's choice (see checkpoint-answers.ts). */
  answer?: CheckpointAnswerInput;
  actor: Actor;
}

export function approvalDecidedEvents(
  view: SessionView,
  input: DecideInput,
): { approval: ApprovalView; aborting: boolean; events: EventInput[] } {
  const approval = view.approvals[input.approvalId];
  if (!approval) throw new UserFacingError("That approval does not exist.", "NOT_FOUND");
  if (approval.status !== "PENDING") {
    throw new UserFacingError(
      `That approval was already answered (${approval.status.toLowerCase()}).`,
      "CONFLICT",
    );
  }
  const edited = input.command?.trim();
  if (edited !== undefined && (approval.kind !== "command" || edited === "")) {
    throw new UserFacingError(
      "Only a command approval takes an edited command, and it cannot be empty.",
      "BAD_REQUEST",
    );
  }
  const editedCall =
    input.call && input.decision === "approved" ? checkEditedCall(approval, input.call) : null;
  if (editedCall && !editedCall.ok) throw new UserFacingError(editedCall.problem, "BAD_REQUEST");
  const aborting = input.abort === true;
  const runGrant = checkRunPreApproval(approval, input.preApproveRun ?? [], input.decision === "approved");
  if (!runGrant.ok) throw new UserFacingError(runGrant.problem, "BAD_REQUEST");
  if (aborting && approval.kind !== "command" && approval.kind !== "tool")
    throw new UserFacingError(
      "Only an action's approval can be aborted; stop the run instead.",
      "BAD_REQUEST",
    );
  const { decision, answer } = aborting
    ? { decision: "rejected" as const, answer: null }
    : resolveCheckpointAnswer(view, approval, input.decision, input.answer);
  const events: EventInput[] = [
    {
      type: "approval-decided",
      runId: approval.runId,
      approvalId: approval.id,
      decision,
      answer,
      decidedBy: input.actor,
      reason: aborting ? `aborted the run${input.reason ? `: ${input.reason}` : ""}` : input.reason,
      call: editedCall?.ok ? editedCall.call : null,
      preApproveRun: aborting ? [] : runGrant.categories,
      checkPlanVersion: approval.kind === "decomposition" ? CHECK_PLAN_VERSION : null,
      command:
        input.decision === "approved" && edited !== undefined && edited !== approval.command ? edited : null,
    },
  ];
  if (input.decision === "approved" && approval.kind === "decomposition") {
    const parent = view.intentions[approval.intentionId];
    if (!parent) throw new UserFacingError("The intention of that approval is gone.", "NOT_FOUND");
    const children = ChildProposal.array()
      .min(1)
      .max(5)
      .safeParse(input.children ?? approval.children);
    if (!children.success) {
      const issue = children.error.issues[0];
      const why = issue?.code === "too_big" || issue?.code === "too_small" ? issue.message : null;
      const message = issue && issue.path.length > 0 && why ? `Check the children: ${why}` : null;
      throw new UserFacingError(message ?? "A decomposition needs between 1 and 5 children.", "BAD_REQUEST");
    }
    const badGlob = children.data
      .flatMap((child) => child.ownedScope)
      .map(scopeGlobProblem)
      .find((problem) => problem !== null);
    if (badGlob) throw new UserFacingError(`Check the children's scopes: ${badGlob}.`, "BAD_REQUEST");
    // A person approved: each child's scope and acceptance check are approved with it.
    const by = { approvalId: approval.id, name: input.actor.name };
    events.push(...childIntentions(approval.runId, parent, children.data, by));
  }
  return { approval, aborting, events };
}
