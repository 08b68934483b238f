import "server-only";
import { DiagLogLevel, diag } from "@opentelemetry/api";
import { errorMessage } from "@/server/domain/errors";
import type { Env } from "@/server/env";
import { logger } from "@/server/logger";
import { type OtelExport, startOtelExport } from "./otel-export";

/** A collector that stays down would otherwise log every few seconds. */
const WARN_EVERY_MS = 60_000;

/**
 * The OpenTelemetry export the environment asks for, or null when OTEL_EXPORTER_OTLP_ENDPOINT is not
 * set (then no SDK object exists at all). Export failures reach the log as warnings, at most one a
 * minute, with the SDK's message only (never the headers).
 */
export function otelExportFromEnv(env: Env): OtelExport | null {
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (endpoint === undefined) return null;
  let lastWarning = 0;
  const warn = (message: string) => {
    const now = Date.now();
    if (now - lastWarning < WARN_EVERY_MS) return;
    lastWarning = now;
    logger.warn({ err: message }, "OpenTelemetry export failed (runs are not affected)");
  };
  const silent = () => undefined;
  diag.setLogger(
    {
      error: (message) => warn(message),
      warn: (message) => warn(message),
      info: silent,
      debug: silent,
      verbose: silent,
    },
    DiagLogLevel.WARN,
  );
  logger.info({ endpoint, serviceName: env.OTEL_SERVICE_NAME }, "exporting OpenTelemetry traces and metrics");
  return startOtelExport({
    endpoint,
    headers: env.OTEL_EXPORTER_OTLP_HEADERS,
    serviceName: env.OTEL_SERVICE_NAME,
    metricIntervalMs: env.OTEL_METRIC_EXPORT_INTERVAL,
    onError: (error) => warn(errorMessage(error)),
  });
}
