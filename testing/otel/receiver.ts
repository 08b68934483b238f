import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local OTLP/HTTP collector for tests: accepts what the official exporters POST to /v1/traces and
 * /v1/metrics (the JSON encoding) and decodes it into flat spans and metric points to assert on.
 */

type OtlpValue = {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
};
type OtlpAttribute = { key: string; value: OtlpValue };

export interface ReceivedSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  startMs: number;
  endMs: number;
  attributes: Record<string, string | number | boolean>;
  /** 2: error (OTLP's STATUS_CODE_ERROR). */
  statusCode: number;
  service: string;
}

export interface ReceivedPoint {
  metric: string;
  unit: string;
  attributes: Record<string, string | number | boolean>;
  /** A sum's value, or a histogram's sum. */
  value: number;
  /** A histogram's count (1 for a sum's point). */
  count: number;
}

export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  points: ReceivedPoint[];
  /** Every header of every request, as received. */
  headers: Record<string, string | string[] | undefined>[];
  close(): Promise<void>;
}

function attributeValue(value: OtlpValue): string | number | boolean {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  throw new Error(`an attribute value of an unexpected kind: ${JSON.stringify(value)}`);
}

function attributesOf(list: OtlpAttribute[] | undefined): Record<string, string | number | boolean> {
  return Object.fromEntries(
    (list ?? []).map((attribute) => [attribute.key, attributeValue(attribute.value)]),
  );
}

const msOf = (nanos: string | number) => Number(BigInt(nanos) / 1_000_000n);

// biome-ignore lint/suspicious/noExplicitAny: the OTLP JSON payload, decoded field by field below.
type Json = any;

function decodeTraces(body: Json): ReceivedSpan[] {
  return (body.resourceSpans ?? []).flatMap((resource: Json) => {
    const service = String(attributesOf(resource.resource?.attributes)["service.name"] ?? "");
    return (resource.scopeSpans ?? []).flatMap((scope: Json) =>
      (scope.spans ?? []).map(
        (span: Json): ReceivedSpan => ({
          name: span.name,
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId ? span.parentSpanId : null,
          startMs: msOf(span.startTimeUnixNano),
          endMs: msOf(span.endTimeUnixNano),
          attributes: attributesOf(span.attributes),
          statusCode: span.status?.code ?? 0,
          service,
        }),
      ),
    );
  });
}

function decodeMetrics(body: Json): ReceivedPoint[] {
  return (body.resourceMetrics ?? []).flatMap((resource: Json) =>
    (resource.scopeMetrics ?? []).flatMap((scope: Json) =>
      (scope.metrics ?? []).flatMap((metric: Json) => {
        const sums = (metric.sum?.dataPoints ?? []).map((point: Json) => ({
          metric: metric.name,
          unit: metric.unit ?? "",
          attributes: attributesOf(point.attributes),
          value: Number(point.asDouble ?? point.asInt ?? 0),
          count: 1,
        }));
        const histograms = (metric.histogram?.dataPoints ?? []).map((point: Json) => ({
          metric: metric.name,
          unit: metric.unit ?? "",
          attributes: attributesOf(point.attributes),
          value: Number(point.sum ?? 0),
          count: Number(point.count ?? 0),
        }));
        return [...sums, ...histograms];
      }),
    ),
  );
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const points: ReceivedPoint[] = [];
  const headers: Record<string, string | string[] | undefined>[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      headers.push(request.headers);
      const text = Buffer.concat(chunks).toString("utf8");
      if (!String(request.headers["content-type"]).includes("json")) {
        response.writeHead(415).end();
        return;
      }
      const body = JSON.parse(text) as Json;
      if (request.url === "/v1/traces") spans.push(...decodeTraces(body));
      else if (request.url === "/v1/metrics") points.push(...decodeMetrics(body));
      else {
        response.writeHead(404).end();
        return;
      }
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    points,
    headers,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
