"use client";

import { useMutation } from "@tanstack/react-query";
import { createContext, useContext } from "react";
import type { CompressedItem } from "@/server/domain/events/tier-schema";
import type { IntentionView, SessionView } from "@/server/domain/session/view";
import { describeError, useTRPC } from "../../_trpc/client";

/**
 * What the intention's latest model request left out (a `context-compressed` event), item by item,
 * with a Restore button each for those who may approve while the run is going. A restored item is
 * sent in full with the intention's next requests and listed here as restored, with who restored it.
 * The replay renders the same list without buttons (no provider there).
 */

export interface ContextRestoreAccess {
  sessionId: string;
  canRestore: boolean;
}

const RestoreAccess = createContext<ContextRestoreAccess | null>(null);

/** The live session view wraps its tree in this; the replay does not, so it shows no Restore button. */
export const ContextRestoreProvider = RestoreAccess.Provider;

/** The live view's session and whether the person may approve; null in the replay. */
export function useSessionAccess(): ContextRestoreAccess | null {
  return useContext(RestoreAccess);
}

const KIND_LABELS: Record<CompressedItem["item"], string> = {
  attempt: "attempt",
  finished_subtree: "verified part",
  intention: "intention",
  contract: "contract",
  repo_context: "repository",
  instructions: "project instructions",
  message: "message",
  reasoning: "reasoning",
};

function summary(compressed: NonNullable<IntentionView["compressed"]>): string {
  const parts = [
    compressed.omitted > 0 ? `${compressed.omitted} left out` : "",
    compressed.shortened > 0 ? `${compressed.shortened} shortened` : "",
    compressed.collapsed > 0
      ? `${compressed.collapsed} verified part${compressed.collapsed === 1 ? "" : "s"} as one line`
      : "",
  ].filter(Boolean);
  const why = compressed.triggers.length > 0 ? ` (${compressed.triggers.join(", ")})` : "";
  return `context compressed: ${parts.join(", ") || "nothing"}${why}`;
}

export function NodeContext({ view, intention }: { view: SessionView; intention: IntentionView }) {
  const access = useContext(RestoreAccess);
  const compressed = intention.compressed;
  if (!compressed && intention.restored.length === 0) return null;
  const running = view.runs[intention.runId]?.status === "RUNNING";
  const restoredIds = new Set(intention.restored.map((entry) => entry.id));
  const canRestore = access?.canRestore === true && running;
  const listed = (compressed?.dropped ?? []).filter(
    (item) => item.id === undefined || !restoredIds.has(item.id),
  );
  return (
    <div className="small" data-testid="intention-context">
      {compressed && (
        <details data-testid="context-dropped">
          <summary className="muted" data-testid="intention-compressed">
            {summary(compressed)}
          </summary>
          <ul className="dropped-items">
            {listed.map((item) => (
              <li
                key={`${item.item}:${item.id ?? ""}:${item.how}`}
                data-testid="dropped-item"
                data-item-id={item.id}
              >
                <span className="badge">{KIND_LABELS[item.item]}</span>{" "}
                <span data-testid="dropped-label">{item.label ?? item.id ?? item.item}</span>{" "}
                <span className="muted">
                  ({item.how}, {item.chars} chars)
                </span>{" "}
                {canRestore && access && item.id !== undefined && (
                  <RestoreButton access={access} intention={intention} itemId={item.id} />
                )}
              </li>
            ))}
          </ul>
        </details>
      )}
      {intention.restored.length > 0 && (
        <ul className="restored-items">
          {intention.restored.map((entry) => (
            <li key={entry.id} data-testid="restored-item" data-item-id={entry.id}>
              restored by {entry.by}: {entry.label ?? entry.id} (sent in full with the next requests)
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** One item's Restore button: the mutation lives here, so a replay (no buttons) runs no hooks for it. */
function RestoreButton({
  access,
  intention,
  itemId,
}: {
  access: ContextRestoreAccess;
  intention: IntentionView;
  itemId: string;
}) {
  const trpc = useTRPC();
  const restore = useMutation(trpc.context.restore.mutationOptions());
  return (
    <>
      <button
        type="button"
        className="secondary"
        disabled={restore.isPending}
        title="Send this item in full with the intention's next requests"
        onClick={() =>
          restore.mutate({
            sessionId: access.sessionId,
            runId: intention.runId,
            intentionId: intention.id,
            itemId,
          })
        }
        data-testid="restore-item"
      >
        Restore
      </button>
      {restore.error && (
        <span role="alert" className="error small">
          {describeError(restore.error)}
        </span>
      )}
    </>
  );
}
