"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import type { ApprovalView, SessionView } from "@/server/events/fold";
import { describeError, useTRPC } from "../../_trpc/client";

/** A decomposition waiting for a person: the proposed children, Approve, or Reject with a reason. */
export function ApprovalCard({
  sessionId,
  approval,
  view,
}: {
  sessionId: string;
  approval: ApprovalView;
  view: SessionView;
}) {
  const trpc = useTRPC();
  const decide = useMutation(trpc.approval.decide.mutationOptions());
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState("");
  const parent = view.intentions[approval.intentionId];

  return (
    <section className="card approval" aria-label="Approval needed" data-testid="approval-card">
      <h2>Approve this decomposition?</h2>
      {parent && <p className="small">For: {parent.what}</p>}
      {parent?.decisions.findLast((entry) => entry.decision === "decompose") && (
        <p className="small" data-testid="approval-trigger">
          Why: {parent.decisions.findLast((entry) => entry.decision === "decompose")?.reason}
        </p>
      )}
      <p className="muted small">{approval.thought}</p>
      <ol className="proposal" data-testid="proposed-children">
        {approval.children.map((child) => (
          <li key={`${child.what}:${child.acceptance}`} data-testid="proposed-child">
            <div>{child.what}</div>
            <div className="muted small">acceptance: {child.acceptance}</div>
          </li>
        ))}
      </ol>
      {decide.error && (
        <p role="alert" className="error">
          {describeError(decide.error)}
        </p>
      )}
      {rejecting ? (
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
            Why? (the run ends with this reason)
            <input
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              data-testid="reject-reason"
            />
          </label>
          <div className="row">
            <button type="submit" className="danger" disabled={decide.isPending} data-testid="confirm-reject">
              Reject and end the run
            </button>
            <button type="button" className="secondary" onClick={() => setRejecting(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <div className="row">
          <button
            type="button"
            className="primary"
            disabled={decide.isPending}
            onClick={() => decide.mutate({ sessionId, approvalId: approval.id, decision: "approved" })}
            data-testid="approve"
          >
            {decide.isPending ? "Sending…" : "Approve"}
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
