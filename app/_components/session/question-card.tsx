"use client";

import { useMutation } from "@tanstack/react-query";
import { useRef, useState } from "react";
import type { CheckpointAnswerInput } from "@/server/domain/events/checkpoint-schema";
import { defaultGrant, describeAllowance } from "@/server/domain/session/budgets";
import type { ApprovalView, SessionView } from "@/server/domain/session/view";
import { JUDGMENTS } from "@/server/domain/vocabulary/session";
import { describeError, useTRPC } from "../../_trpc/client";
import { useApprovalShortcuts } from "./use-approval-shortcuts";
import { ViewerNote } from "./viewer-note";

/** Approval kinds that carry a proposal (seed 000's judgment questions, an intention's budget). */
export const QUESTION_KINDS = new Set(["judgment", "integration", "reflection", "intention-budget"]);

const TITLES: Record<string, string> = {
  judge_action: "Judge this action",
  verify_integration: "Verify the integration",
  review_reflection: "Review the reflection",
  intention_budget: "Intention budget reached",
};

/**
 * A question where the auto checkpoint has an answer and a person has the last word: the proposal and
 * its evidence, a button to confirm it, buttons for every other verdict, and a reason the log keeps.
 */
export function QuestionCard({
  sessionId,
  approval,
  view,
  shortcuts,
  canAnswer = true,
}: {
  sessionId: string;
  approval: ApprovalView;
  view: SessionView;
  shortcuts: boolean;
  /** False for a viewer: the card is shown without its answer controls. */
  canAnswer?: boolean;
}) {
  const trpc = useTRPC();
  const decide = useMutation(trpc.approval.decide.mutationOptions());
  const [reason, setReason] = useState("");
  const reasonInput = useRef<HTMLInputElement>(null);
  const proposal = approval.proposal;
  const [reflection, setReflection] = useState(
    proposal?.question === "review_reflection" ? proposal.reflection : "",
  );
  const intention = view.intentions[approval.intentionId];
  const grant = defaultGrant(intention?.budget ?? null, {
    costUsd: proposal?.question === "intention_budget" ? proposal.spent.costUsd : 0,
    tokens: proposal?.question === "intention_budget" ? proposal.spent.tokens : 0,
  });
  const [grantUsd, setGrantUsd] = useState(grant.maxCostUsd === null ? "" : String(grant.maxCostUsd));
  const [grantTokens, setGrantTokens] = useState(grant.maxTokens === null ? "" : String(grant.maxTokens));

  const answer = (decision: "approved" | "rejected", given?: CheckpointAnswerInput) =>
    decide.mutate({
      sessionId,
      approvalId: approval.id,
      decision,
      reason: reason.trim() || null,
      answer: given,
    });
  useApprovalShortcuts(
    shortcuts && canAnswer,
    () => answer("approved"),
    () => reasonInput.current?.focus(),
  );
  if (!proposal) return null;
  const busy = decide.isPending;

  return (
    <section
      className="card approval"
      aria-label="Approval needed"
      data-testid="approval-card"
      data-kind={approval.kind}
      data-approval-id={approval.id}
    >
      <h2>{TITLES[proposal.question]}</h2>
      {intention && <p className="small">For: {intention.what}</p>}
      <p className="muted small" data-testid="question-thought">
        {approval.thought}
      </p>
      {(proposal.question === "judge_action" || proposal.question === "verify_integration") && (
        <>
          <p>
            Proposed:{" "}
            <span className="pill" data-testid="proposed-verdict">
              {proposal.question === "judge_action" ? proposal.judgment : proposal.status}
            </span>{" "}
            <span className="muted small">{proposal.reason}</span>
          </p>
          <pre className="output" data-testid="question-evidence">
            {proposal.evidence}
          </pre>
        </>
      )}
      {proposal.question === "review_reflection" && (
        <label>
          Reflection (the next attempt reads it; edit it if needed)
          <textarea
            className="command-input"
            value={reflection}
            rows={Math.min(8, Math.max(3, reflection.split("\n").length))}
            onChange={(event) => setReflection(event.target.value)}
            data-testid="reflection-input"
          />
        </label>
      )}
      {proposal.question === "intention_budget" && (
        <div className="row">
          <span data-testid="budget-question">
            Spent{" "}
            {describeAllowance({ maxCostUsd: proposal.spent.costUsd, maxTokens: proposal.spent.tokens })} of{" "}
            {describeAllowance(proposal.budget)}.
          </span>
          {grant.maxCostUsd !== null && (
            <label>
              Grant $
              <input
                value={grantUsd}
                onChange={(event) => setGrantUsd(event.target.value)}
                data-testid="grant-usd"
              />
            </label>
          )}
          {grant.maxTokens !== null && (
            <label>
              Grant tokens
              <input
                value={grantTokens}
                onChange={(event) => setGrantTokens(event.target.value)}
                data-testid="grant-tokens"
              />
            </label>
          )}
        </div>
      )}
      {!canAnswer ? (
        <ViewerNote />
      ) : (
        <>
          <label>
            Why? (optional; kept in the log with your answer)
            <input
              ref={reasonInput}
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              data-testid="verdict-reason"
            />
          </label>
          {decide.error && (
            <p role="alert" className="error">
              {describeError(decide.error)}
            </p>
          )}
          <div className="row">
            {proposal.question === "judge_action" && (
              <>
                <button
                  type="button"
                  className="primary"
                  disabled={busy}
                  onClick={() => answer("approved")}
                  data-testid="approve"
                >
                  Confirm {proposal.judgment}
                </button>
                {JUDGMENTS.filter((judgment) => judgment !== proposal.judgment).map((judgment) => (
                  <button
                    key={judgment}
                    type="button"
                    className="secondary"
                    disabled={busy}
                    onClick={() => answer("rejected", { question: "judge_action", judgment })}
                    data-testid={`verdict-${judgment}`}
                  >
                    {judgment}
                  </button>
                ))}
              </>
            )}
            {proposal.question === "verify_integration" && (
              <>
                <button
                  type="button"
                  className="primary"
                  disabled={busy}
                  onClick={() => answer("approved")}
                  data-testid="approve"
                >
                  Confirm {proposal.status}
                </button>
                {(["VERIFIED", "FAILED"] as const)
                  .filter((status) => status !== proposal.status)
                  .map((status) => (
                    <button
                      key={status}
                      type="button"
                      className={status === "FAILED" ? "danger" : "secondary"}
                      disabled={busy}
                      onClick={() => answer("rejected", { question: "verify_integration", status })}
                      data-testid={`verdict-${status}`}
                    >
                      Mark {status}
                    </button>
                  ))}
              </>
            )}
            {proposal.question === "review_reflection" && (
              <>
                <button
                  type="button"
                  className="primary"
                  disabled={busy || reflection.trim() === ""}
                  onClick={() =>
                    answer("approved", { question: "review_reflection", reflection: reflection.trim() })
                  }
                  data-testid="approve"
                >
                  {reflection.trim() === proposal.reflection ? "Accept" : "Save edited reflection"}
                </button>
                <button
                  type="button"
                  className="secondary"
                  disabled={busy || reflection.trim() === ""}
                  onClick={() =>
                    answer("rejected", {
                      question: "review_reflection",
                      reflection: reflection.trim(),
                      decompose: true,
                    })
                  }
                  data-testid="request-decomposition"
                >
                  Decompose instead
                </button>
              </>
            )}
            {proposal.question === "intention_budget" && (
              <>
                <button
                  type="button"
                  className="primary"
                  disabled={busy}
                  onClick={() =>
                    answer("approved", {
                      question: "intention_budget",
                      choice: "grant",
                      grant: { maxCostUsd: amount(grantUsd), maxTokens: amount(grantTokens, true) },
                    })
                  }
                  data-testid="approve"
                >
                  Grant more
                </button>
                {intention && intention.childIds.length === 0 && (
                  <button
                    type="button"
                    className="secondary"
                    disabled={busy}
                    onClick={() => answer("rejected", { question: "intention_budget", choice: "decompose" })}
                    data-testid="budget-decompose"
                  >
                    Decompose it
                  </button>
                )}
                <button
                  type="button"
                  className="danger"
                  disabled={busy}
                  onClick={() => answer("rejected", { question: "intention_budget", choice: "stop" })}
                  data-testid="budget-stop"
                >
                  Stop this intention
                </button>
              </>
            )}
          </div>
        </>
      )}
    </section>
  );
}

/** A typed amount: empty or unreadable means "no grant in this dimension" (null). */
function amount(text: string, whole = false): number | null {
  const value = Number(text.trim());
  if (text.trim() === "" || !Number.isFinite(value) || value < 0) return null;
  return whole ? Math.floor(value) : value;
}
