import "server-only";
import {
  type Attributes,
  type Context,
  type Counter,
  type Histogram,
  ROOT_CONTEXT,
  type Span,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import { OTLPMetricExporter } from "@opentelemetry/exporter-metrics-otlp-http";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { MeterProvider, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type IdGenerator,
  RandomIdGenerator,
} from "@opentelemetry/sdk-trace-base";
import type { StoredEvent } from "@/server/domain/events/schema";
import type { SpanIds } from "./run-trace-ids";
import { TelemetryOfEvents } from "./telemetry-of-events";
import { METRICS, type MetricName, type TelemetryOp } from "./telemetry-ops";

export interface OtelExportConfig {
  /** The collector's base URL (OTEL_EXPORTER_OTLP_ENDPOINT): spans go to /v1/traces, metrics to /v1/metrics. */
  endpoint: string;
  headers: Record<string, string>;
  serviceName: string;
  /** How often metrics are sent (OTEL_METRIC_EXPORT_INTERVAL). */
  metricIntervalMs: number;
  /** Told (rarely) when the exporter fails or an event could not be mapped; never throws into a run. */
  onError: (error: unknown) => void;
}

export interface OtelExport {
  /** Called after each committed append: maps the events and hands spans to the background queue. */
  observe(sessionId: string, events: readonly StoredEvent[]): void;
  /** Sends what is still queued (one last export of the metrics too), then stops. */
  shutdown(): Promise<void>;
}

/** Spans waiting to be sent at most; beyond it new spans are dropped, so a dead collector costs bounded memory. */
const MAX_QUEUED_SPANS = 2_048;
/** Each request to the collector gives up after this long, in the background. */
const EXPORT_TIMEOUT_MS = 10_000;

/**
 * Random ids, except for the one span started right after `fix`: the SDK asks its id generator for a
 * root span's ids and offers no other way to choose them, and a run's root must have the ids derived
 * from the run (run-trace-ids.ts) so that a resumed run continues its trace. Spans start one at a
 * time (synchronously), so the fixed ids cannot reach another span.
 */
class RunIdGenerator implements IdGenerator {
  private readonly random = new RandomIdGenerator();
  private fixed: SpanIds | null = null;
  fix(ids: SpanIds | undefined): void {
    this.fixed = ids ?? null;
  }
  generateTraceId(): string {
    return this.fixed?.traceId ?? this.random.generateTraceId();
  }
  generateSpanId(): string {
    return this.fixed?.spanId ?? this.random.generateSpanId();
  }
}

/**
 * The official SDK over OTLP/HTTP (JSON), fed from the event log. Nothing here is awaited by a run:
 * `observe` only starts and ends span objects and adds to instruments (in memory); the batch span
 * processor and the periodic metric reader send them in the background, and a collector that is down
 * or slow only makes them drop what does not fit their bounded queues.
 */
export function startOtelExport(config: OtelExportConfig): OtelExport {
  const base = config.endpoint.replace(/\/+$/, "");
  const resource = resourceFromAttributes({ "service.name": config.serviceName });
  const exporterOptions = { headers: config.headers, timeoutMillis: EXPORT_TIMEOUT_MS, concurrencyLimit: 2 };
  const ids = new RunIdGenerator();
  const tracerProvider = new BasicTracerProvider({
    resource,
    idGenerator: ids,
    spanProcessors: [
      new BatchSpanProcessor(new OTLPTraceExporter({ ...exporterOptions, url: `${base}/v1/traces` }), {
        maxQueueSize: MAX_QUEUED_SPANS,
        maxExportBatchSize: 512,
        scheduledDelayMillis: 2_000,
        exportTimeoutMillis: EXPORT_TIMEOUT_MS,
      }),
    ],
  });
  const meterProvider = new MeterProvider({
    resource,
    readers: [
      new PeriodicExportingMetricReader({
        exporter: new OTLPMetricExporter({ ...exporterOptions, url: `${base}/v1/metrics` }),
        exportIntervalMillis: config.metricIntervalMs,
        exportTimeoutMillis: Math.min(EXPORT_TIMEOUT_MS, config.metricIntervalMs),
      }),
    ],
  });
  const tracer = tracerProvider.getTracer("arbor");
  const meter = meterProvider.getMeter("arbor");
  const instruments = new Map<MetricName, Counter | Histogram>();
  for (const [name, spec] of Object.entries(METRICS) as [MetricName, (typeof METRICS)[MetricName]][]) {
    const options = { unit: spec.unit, description: spec.description };
    instruments.set(
      name,
      spec.kind === "counter" ? meter.createCounter(name, options) : meter.createHistogram(name, options),
    );
  }

  const mapping = new TelemetryOfEvents();
  const open = new Map<string, Span>();
  const parentContext = (key: string | null): Context => {
    const parent = key === null ? undefined : open.get(key);
    return parent ? trace.setSpan(ROOT_CONTEXT, parent) : ROOT_CONTEXT;
  };
  const finish = (span: Span, attributes: Attributes, error: string | null, endMs: number) => {
    span.setAttributes(attributes);
    if (error !== null) span.setStatus({ code: SpanStatusCode.ERROR, message: error });
    span.end(endMs);
  };
  const apply = (op: TelemetryOp) => {
    switch (op.op) {
      case "start": {
        ids.fix(op.ids);
        try {
          open.set(
            op.key,
            tracer.startSpan(
              op.name,
              { startTime: op.startMs, attributes: op.attributes },
              parentContext(op.parentKey),
            ),
          );
        } finally {
          ids.fix(undefined);
        }
        return;
      }
      case "end": {
        const span = open.get(op.key);
        open.delete(op.key);
        if (span) finish(span, op.attributes, op.error, op.endMs);
        return;
      }
      case "span": {
        const span = tracer.startSpan(op.name, { startTime: op.startMs }, parentContext(op.parentKey));
        finish(span, op.attributes, op.error, op.endMs);
        return;
      }
      case "count":
        (instruments.get(op.metric) as Counter).add(op.value, op.attributes);
        return;
      case "record":
        (instruments.get(op.metric) as Histogram).record(op.value, op.attributes);
        return;
    }
  };

  return {
    observe(sessionId, events) {
      for (const event of events) {
        try {
          for (const op of mapping.ops(sessionId, event)) apply(op);
        } catch (error) {
          config.onError(error);
        }
      }
    },
    async shutdown() {
      await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]);
    },
  };
}
