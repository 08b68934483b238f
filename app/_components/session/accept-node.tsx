"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { guardVerdict } from "@/server/domain/contract/regression-guard";
import type { IntentionView, RunGuardView, SessionView } from "@/server/domain/session/view";
import { describeError, useTRPC } from "../../_trpc/client";
import { useSessionAccess } from "./node-context";

/**
 * Issue #15: "Accept as verified" on a leaf that failed for want of evidence (it succeeded, but no
 * check ran or every check was already green before the work), once its run ended, for those who
 * may approve. A reason is required; the log keeps it with the person's name. The server decides
 * (`acceptRefusal`); this only hides the control where it could not succeed. Not in the replay.
 */
/** The regression guard stopped this root: it had evidence, so it is not "unproven" (the server refuses). */
function guardFoundRegression(guard: RunGuardView | undefined): boolean {
  if (!guard?.before || !guard.after) return false;
  return guardVerdict(guard.command, guard.before, guard.after).kind === "regression";
}

export function AcceptAsVerified({ view, intention }: { view: SessionView; intention: IntentionView }) {
  const access = useSessionAccess();
  const trpc = useTRPC();
  const accept = useMutation(trpc.run.acceptAsVerified.mutationOptions());
  const [reason, setReason] = useState("");
  const run = view.runs[intention.runId];
  const ended = run?.status !== "RUNNING";
  const unproven =
    intention.status === "FAILED" &&
    intention.childIds.length === 0 &&
    intention.cycles.at(-1)?.judgment === "SUCCESS" &&
    !(run?.rootId === intention.id && guardFoundRegression(run.guard));
  if (!access?.canRestore || !ended || !unproven) return null;
  return (
    <form
      className="row small"
      data-testid="accept-node"
      onSubmit={(event) => {
        event.preventDefault();
        accept.mutate({ sessionId: access.sessionId, intentionId: intention.id, reason: reason.trim() });
      }}
    >
      <input
        aria-label="Why you accept it as verified"
        placeholder="Why you accept it (required; kept with your name)"
        value={reason}
        maxLength={2_000}
        onChange={(event) => setReason(event.target.value)}
        data-testid="accept-reason"
      />
      <button
        type="submit"
        className="secondary"
        disabled={accept.isPending || reason.trim() === ""}
        data-testid="accept-as-verified"
      >
        Accept as verified
      </button>
      {accept.error && (
        <span role="alert" className="error small">
          {describeError(accept.error)}
        </span>
      )}
    </form>
  );
}
