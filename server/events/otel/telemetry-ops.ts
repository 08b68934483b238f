/**
 * Issue #21.5: what OpenTelemetry sees of a session's log, as operations (start or end a span, add to
 * a metric) that `otel-export.ts` applies to the official SDK. `telemetry-of-events.ts` derives them
 * from the events; this file names them and the instruments.
 *
 * Attributes carry ids, names, counts, statuses and durations only: never a task, a thought, a
 * command, file contents, command output or anything a person typed (they may hold secrets).
 */

import type { SpanIds } from "./run-trace-ids";

export type AttributeValue = string | number | boolean;
export type Attributes = Readonly<Record<string, AttributeValue>>;

/** A span to open now and close later by its key (a run, an intention, an action, an approval). */
interface StartSpan {
  op: "start";
  key: string;
  parentKey: string | null;
  name: string;
  startMs: number;
  attributes: Attributes;
  /** A root span's fixed trace and span ids (a run's: run-trace-ids.ts); otherwise random ones. */
  ids?: SpanIds;
}
interface EndSpan {
  op: "end";
  key: string;
  endMs: number;
  attributes: Attributes;
  /** Set: the span ends in error, with this short, content-free description. */
  error: string | null;
}
/** A span whose start and end are both known from one event (a model call, a read, a check). */
interface WholeSpan {
  op: "span";
  parentKey: string | null;
  name: string;
  startMs: number;
  endMs: number;
  attributes: Attributes;
  error: string | null;
}
interface MetricPoint {
  op: "count" | "record";
  metric: MetricName;
  value: number;
  attributes: Attributes;
}
export type TelemetryOp = StartSpan | EndSpan | WholeSpan | MetricPoint;

/** The instruments: counters are summed (`count`), histograms record a distribution (`record`). */
export const METRICS = {
  "arbor.runs": { kind: "counter", unit: "{run}", description: "Runs ended, by final status" },
  "gen_ai.client.token.usage": {
    kind: "histogram",
    unit: "{token}",
    description: "Tokens per model call, by gen_ai.token.type (input, output)",
  },
  "arbor.model.tokens": {
    kind: "counter",
    unit: "{token}",
    description: "Tokens used by model calls, by gen_ai.token.type (input, output)",
  },
  "arbor.model.cost": {
    kind: "counter",
    unit: "USD",
    description: "What model calls cost at the configured prices (calls without a price add nothing)",
  },
  "gen_ai.client.operation.duration": {
    kind: "histogram",
    unit: "s",
    description: "How long each model call took",
  },
  "arbor.tool_calls": {
    kind: "counter",
    unit: "{call}",
    description: "Tool calls, by tool, risk and outcome",
  },
  "arbor.approvals": {
    kind: "counter",
    unit: "{approval}",
    description: "Approvals answered, by kind and decision",
  },
  "arbor.approval.wait": {
    kind: "histogram",
    unit: "s",
    description: "How long an approval waited for a person's answer",
  },
  "arbor.checks": {
    kind: "counter",
    unit: "{check}",
    description: "Contract check commands run, by phase and status",
  },
  "arbor.criteria": {
    kind: "counter",
    unit: "{criterion}",
    description: "Criteria checked, by kind and outcome (passed, failed, could-not-run)",
  },
  "arbor.verifications": {
    kind: "counter",
    unit: "{intention}",
    description: "Intentions VERIFIED, by the kind of evidence (red-to-green, ran-as-requested, …)",
  },
} as const satisfies Record<string, { kind: "counter" | "histogram"; unit: string; description: string }>;
export type MetricName = keyof typeof METRICS;
