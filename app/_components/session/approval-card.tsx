"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import {
  checkHintsFor,
  guardCheckCommand,
  integrationCheckCommands,
} from "@/server/domain/contract/child-checks";
import type { ToolCallBody } from "@/server/domain/events/schema";
import { type PreApprovableCategory, preApprovableCategoryOf } from "@/server/domain/policy/checkpoints";
import type { ApprovalView, IntentionView, SessionView } from "@/server/domain/session/view";
import { describeError, useTRPC } from "../../_trpc/client";
import { ChildrenEditor, GuardCheck, IntegrationChecks } from "./children-editor";
import { InterruptedCommand } from "./interrupted-command";
import { QUESTION_KINDS, QuestionCard } from "./question-card";
import { contentAfter, ToolCallView } from "./tool-call-view";
import { useApprovalShortcuts } from "./use-approval-shortcuts";
import { ViewerNote } from "./viewer-note";

/**
 * A question waiting for a person. A decomposition shows the proposed children; a command shows the
 * exact command, which the person may edit before approving; another tool call shows what it does (a
 * write's diff with editable new content, a delete's file, a commit's staged diff and message). Reject
 * asks for a reason; an action's card can also abort the run.
 */
export function ApprovalCard({
  sessionId,
  approval,
  view,
  shortcuts = false,
  canAnswer = true,
}: {
  sessionId: string;
  approval: ApprovalView;
  view: SessionView;
  /** The first waiting card answers the keyboard: A approves, R opens the rejection. */
  shortcuts?: boolean;
  /** False for a viewer: they watch the card live, without its answer controls. */
  canAnswer?: boolean;
}) {
  const trpc = useTRPC();
  const decide = useMutation(trpc.approval.decide.mutationOptions());
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState("");
  const [command, setCommand] = useState(approval.command ?? "");
  const [children, setChildren] = useState(approval.children);
  const childrenEdited = JSON.stringify(children) !== JSON.stringify(approval.children);
  const childrenValid = children.length > 0 && children.every((child) => child.what.trim() !== "");
  const intention = view.intentions[approval.intentionId];
  const isCommand = approval.kind === "command";
  const isTool = approval.kind === "tool" && approval.call !== null;
  const isAction = isCommand || isTool;
  const isBudget = approval.kind === "budget";
  const call = approval.call;
  const proposedContent = call ? contentAfter(call, approval.preview) : null;
  const proposedMessage = typeof call?.input.message === "string" ? call.input.message : "";
  const [content, setContent] = useState(proposedContent);
  const [message, setMessage] = useState(proposedMessage);
  const editedCall = call
    ? editedToolCall(call, proposedContent, content, proposedMessage, message)
    : undefined;
  const trigger = intention?.decisions.findLast((entry) => entry.decision === "decompose")?.reason;
  // Seed 004's batch approval for one run: this card's category, for the rest of its run.
  const runCategory = isTool && call ? preApprovableCategoryOf(call.tool) : null;
  const [preApproveRun, setPreApproveRun] = useState(false);

  const approve = () =>
    decide.mutate({
      sessionId,
      approvalId: approval.id,
      decision: "approved",
      command: isCommand && command.trim() !== approval.command ? command.trim() : undefined,
      call: editedCall,
      preApproveRun: runCategory && preApproveRun ? [runCategory] : undefined,
      children:
        approval.kind === "decomposition" && childrenEdited
          ? children.map((child) => ({
              what: child.what.trim(),
              acceptance: child.acceptance.trim(),
              ownedScope: child.ownedScope.map((glob) => glob.trim()).filter((glob) => glob !== ""),
            }))
          : undefined,
    });

  // A judgment question or an intention budget answers the keyboard in its own card.
  useApprovalShortcuts(shortcuts && canAnswer && !QUESTION_KINDS.has(approval.kind), approve, () =>
    setRejecting(true),
  );

  if (QUESTION_KINDS.has(approval.kind)) {
    return (
      <QuestionCard
        sessionId={sessionId}
        approval={approval}
        view={view}
        shortcuts={shortcuts}
        canAnswer={canAnswer}
      />
    );
  }

  return (
    <section
      className="card approval"
      aria-label="Approval needed"
      aria-keyshortcuts={shortcuts ? "a r" : undefined}
      data-testid="approval-card"
      data-kind={approval.kind}
      data-approval-id={approval.id}
    >
      <h2>
        {isBudget
          ? "Budget reached"
          : isCommand
            ? approval.interruption
              ? "Run this command again?"
              : "Run this command?"
            : isTool
              ? toolQuestion(call?.tool ?? "")
              : "Approve this decomposition?"}
      </h2>
      {intention && <p className="small">For: {intention.what}</p>}
      {isBudget ? (
        <p data-testid="budget-question">{approval.thought}</p>
      ) : isTool && call ? (
        <>
          <p className="muted small">{approval.thought}</p>
          <ToolCallView
            approval={approval}
            call={call}
            content={proposedContent}
            message={message}
            onContent={setContent}
            onMessage={setMessage}
          />
          <p className={approval.confirm ? "warn small" : "muted small"} data-testid="gate-reason">
            {approval.gateReason}
          </p>
        </>
      ) : isCommand ? (
        <>
          <p className="muted small">{approval.thought}</p>
          {approval.interruption && <InterruptedCommand interruption={approval.interruption} />}
          <label>
            Command (edit it before approving if needed)
            <textarea
              className="command-input"
              value={command}
              onChange={(event) => setCommand(event.target.value)}
              rows={Math.min(6, Math.max(2, command.split("\n").length))}
              data-testid="command-input"
              spellCheck={false}
            />
          </label>
          <p className={approval.confirm ? "warn small" : "muted small"} data-testid="gate-reason">
            {approval.confirm ? "Check it: this command may change or delete things. " : ""}
            {approval.gateReason}
          </p>
        </>
      ) : (
        <>
          {trigger && (
            <p className="small" data-testid="approval-trigger">
              Why: {trigger}
            </p>
          )}
          <p className="muted small">{approval.thought}</p>
          <ChildrenEditor
            proposals={children}
            onChange={setChildren}
            discovered={view.runs[approval.runId]?.intent ?? null}
          />
          <IntegrationChecks
            commands={integrationCheckCommands(
              intention?.contract ?? [],
              checkHintsFor({ what: intention?.what ?? "" }, view.runs[approval.runId]?.intent?.codebase),
            )}
          />
          <GuardCheck command={guardOnCard(view, approval.runId, intention)} />
        </>
      )}
      {decide.error && (
        <p role="alert" className="error">
          {describeError(decide.error)}
        </p>
      )}
      {!canAnswer ? (
        <ViewerNote />
      ) : rejecting ? (
        <form
          className="stack"
          onSubmit={(event) => {
            event.preventDefault();
            decide.mutate({
              sessionId,
              approvalId: approval.id,
              decision: "rejected",
              reason: reason || null,
            });
          }}
        >
          <label>
            {isBudget
              ? "Why stop? (optional)"
              : isAction
                ? "Why? (the agent is told, and tries another way)"
                : "Why? (the run ends with this reason)"}
            <input
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              data-testid="reject-reason"
            />
          </label>
          <div className="row">
            <button type="submit" className="danger" disabled={decide.isPending} data-testid="confirm-reject">
              {isBudget
                ? "Stop the run"
                : isCommand
                  ? "Reject the command"
                  : isTool
                    ? "Skip this change"
                    : "Reject and end the run"}
            </button>
            {isAction && (
              <button
                type="button"
                className="danger"
                disabled={decide.isPending}
                data-testid="abort-run"
                onClick={() =>
                  decide.mutate({
                    sessionId,
                    approvalId: approval.id,
                    decision: "rejected",
                    reason: reason || null,
                    abort: true,
                  })
                }
              >
                Abort the run
              </button>
            )}
            <button type="button" className="secondary" onClick={() => setRejecting(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <div className="row">
          {runCategory && (
            <label className="small inline" data-testid="preapprove-run-label">
              <input
                type="checkbox"
                checked={preApproveRun}
                onChange={(event) => setPreApproveRun(event.target.checked)}
                data-testid="preapprove-run"
              />
              <span>
                Approve all {RUN_CATEGORY_LABELS[runCategory]} for the rest of this run
                <span className="muted"> (deletes, checkouts and protected files still ask)</span>
              </span>
            </label>
          )}
          <button
            type="button"
            className="primary"
            disabled={
              decide.isPending ||
              (isCommand && command.trim() === "") ||
              (call?.tool === "git.commit" && message.trim() === "") ||
              (approval.kind === "decomposition" && !childrenValid)
            }
            onClick={approve}
            data-testid="approve"
          >
            {decide.isPending
              ? "Sending…"
              : isBudget
                ? "Grant more"
                : isCommand && command.trim() !== approval.command
                  ? "Run edited command"
                  : editedCall
                    ? "Approve edited"
                    : "Approve"}
          </button>
          <button
            type="button"
            className="secondary"
            disabled={decide.isPending}
            onClick={() => setRejecting(true)}
            data-testid="reject"
          >
            Reject
          </button>
        </div>
      )}
    </section>
  );
}

const RUN_CATEGORY_LABELS: Record<PreApprovableCategory, string> = {
  write: "file changes",
  "git-write": "git changes",
};

function toolQuestion(tool: string): string {
  if (tool === "fs.write") return "Write this file?";
  if (tool === "fs.edit") return "Apply this edit?";
  if (tool === "fs.delete") return "Delete this file?";
  if (tool === "git.commit") return "Commit these changes?";
  return `Run ${tool}?`;
}

/**
 * The call to send when the person changed it: a write or an edit becomes a whole-file fs.write of
 * the same path with their content; a commit keeps its tool with their message. Undefined: unchanged.
 */
function editedToolCall(
  call: ToolCallBody,
  proposedContent: string | null,
  content: string | null,
  proposedMessage: string,
  message: string,
): ToolCallBody | undefined {
  if (content !== null && content !== proposedContent)
    return { tool: "fs.write", input: { path: call.input.path, content } };
  if (call.tool === "git.commit" && message !== proposedMessage)
    return { tool: "git.commit", input: { ...call.input, message } };
  return undefined;
}

/** The guard a root's decomposition card lists (and its approval covers); null for any other card. */
function guardOnCard(view: SessionView, runId: string, intention: IntentionView | undefined): string | null {
  const run = view.runs[runId];
  if (!run || !intention || run.rootId !== intention.id) return null;
  return guardCheckCommand(run, intention);
}
