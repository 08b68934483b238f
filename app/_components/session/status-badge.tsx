import { shownIntentionStatus, shownRunStatus } from "@/server/domain/session/shown-status";
import type { IntentionView, RunView, SessionView } from "@/server/domain/session/view";
import type { Judgment, RunStatus } from "@/server/domain/vocabulary/session";
import {
  SHOWN_STATUS_LABELS,
  SHOWN_STATUS_MEANINGS,
  SHOWN_STATUS_TONES,
  type ShownStatus,
} from "@/server/domain/vocabulary/shown-status";

const JUDGMENT_TONES: Record<Judgment, string> = {
  SUCCESS: "ok",
  FAILURE: "danger",
  PARTIAL: "warn",
  UNCLEAR: "warn",
};

/** A cycle's judgment (SUCCESS, FAILURE, PARTIAL, UNCLEAR): the judge's word, not a status. */
export function JudgmentBadge({ judgment, testId }: { judgment: Judgment; testId?: string }) {
  return (
    <span className={`badge ${JUDGMENT_TONES[judgment]}`} data-testid={testId} data-status={judgment}>
      {judgment}
    </span>
  );
}

/**
 * One badge for runs, sessions and nodes (issue #17.4): it reads the shown status
 * (`server/domain/vocabulary/shown-status.ts`); `data-status` keeps the stored one for tests and tools.
 */
export function ShownStatusBadge({
  shown,
  stored,
  testId,
}: {
  shown: ShownStatus;
  stored: string;
  testId?: string;
}) {
  return (
    <span
      className={`badge ${SHOWN_STATUS_TONES[shown]}`}
      data-testid={testId}
      data-status={stored}
      data-shown={shown}
      title={SHOWN_STATUS_MEANINGS[shown]}
    >
      {SHOWN_STATUS_LABELS[shown]}
    </span>
  );
}

export function NodeStatusBadge({ view, intention }: { view: SessionView; intention: IntentionView }) {
  const shown = shownIntentionStatus(view, intention, view.runs[intention.runId]);
  return <ShownStatusBadge shown={shown} stored={intention.status} testId="intention-status" />;
}

/** A run's badge; `view` (the live session or the replay) tells a run that waits for a person. */
export function RunStatusBadge({
  run,
  view,
}: {
  run: Pick<RunView, "id" | "status" | "mode" | "route">;
  view?: Pick<SessionView, "approvals">;
}) {
  const shown = shownRunStatus(view ?? { approvals: {} }, run);
  return <ShownStatusBadge shown={shown} stored={run.status satisfies RunStatus} testId="run-status" />;
}
