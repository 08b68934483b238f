"use client";

import { useMutation } from "@tanstack/react-query";
import { PRE_APPROVABLE_CATEGORIES } from "@/server/domain/policy/checkpoints";
import type { RunView } from "@/server/domain/session/view";
import { describeError, useTRPC } from "../../_trpc/client";

const LABELS = { write: "file changes", "git-write": "git changes" } as const;

/**
 * What a person pre-approved for the rest of this run, and who, in the session bar; while the run is
 * going, those who may approve can grant a category here before its first card asks.
 */
export function RunPreApprovals({
  sessionId,
  run,
  canGrant,
}: {
  sessionId: string;
  run: RunView;
  canGrant: boolean;
}) {
  const trpc = useTRPC();
  const grant = useMutation(trpc.run.preApprove.mutationOptions());
  const open = PRE_APPROVABLE_CATEGORIES.filter(
    (category) => !run.preApproved.some((granted) => granted.category === category),
  );
  const granting = canGrant && run.status === "RUNNING" && open.length > 0;
  if (run.preApproved.length === 0 && !granting) return null;
  const text = run.preApproved
    .map((granted) => `${LABELS[granted.category]} (by ${granted.grantedBy})`)
    .join(", ");
  return (
    <>
      {run.preApproved.length > 0 && (
        <span
          className="pill"
          data-testid="run-preapproved"
          title="Deletes, checkouts, protected files and commands still ask"
        >
          Pre-approved for this run: {text}
        </span>
      )}
      {granting && (
        <span className="small" data-testid="run-preapprove-menu">
          Approve for this run:{" "}
          {open.map((category) => (
            <button
              key={category}
              type="button"
              className="secondary"
              disabled={grant.isPending}
              title={`Let the rest of this run's ${LABELS[category]} through without a card (deletes, checkouts and protected files still ask)`}
              onClick={() => grant.mutate({ sessionId, runId: run.id, categories: [category] })}
              data-testid={`run-preapprove-${category}`}
            >
              all {LABELS[category]}
            </button>
          ))}
        </span>
      )}
      {grant.error && (
        <span role="alert" className="error small">
          {describeError(grant.error)}
        </span>
      )}
    </>
  );
}
