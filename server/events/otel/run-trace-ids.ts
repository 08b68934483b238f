import { createHash } from "node:crypto";

/**
 * The trace id of a run and the span id of its root span, derived from the run's id alone: every
 * process that maps the run's events — the one that started it, the one that resumed it after a
 * kill -9, the instance that took its lease over — opens the same root in the same trace, so the
 * spans before and after a restart join one tree. (W3C ids: 16 and 8 bytes in hex, never all zeros.)
 */
export interface SpanIds {
  traceId: string;
  spanId: string;
}

function nonZeroHex(seed: string, bytes: number): string {
  const hex = createHash("sha256")
    .update(seed)
    .digest("hex")
    .slice(0, bytes * 2);
  return /^0+$/.test(hex) ? `${hex.slice(0, -1)}1` : hex;
}

export function runTraceIds(runId: string): SpanIds {
  return {
    traceId: nonZeroHex(`arbor-run-trace:${runId}`, 16),
    spanId: nonZeroHex(`arbor-run-root-span:${runId}`, 8),
  };
}
