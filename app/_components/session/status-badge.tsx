import type { IntentionStatus, Judgment, RunStatus } from "@/server/domain/vocabulary/session";

const tone: Record<string, string> = {
  PENDING: "neutral",
  ACTIVE: "info",
  RUNNING: "info",
  VERIFIED: "ok",
  ANSWERED: "info",
  SUCCESS: "ok",
  FAILED: "danger",
  FAILURE: "danger",
  STOPPED: "warn",
  PARTIAL: "warn",
  UNCLEAR: "warn",
};

export function StatusBadge({ status, testId }: { status: IntentionStatus | Judgment; testId?: string }) {
  return (
    <span className={`badge ${tone[status] ?? "neutral"}`} data-testid={testId} data-status={status}>
      {status}
    </span>
  );
}

export function RunStatusBadge({ status }: { status: RunStatus | string }) {
  return (
    <span className={`badge ${tone[status] ?? "neutral"}`} data-testid="run-status" data-status={status}>
      {status}
    </span>
  );
}
