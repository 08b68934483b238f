import { z } from "zod";
import { ModelOutputError, ModelRequestError, ModelUnavailableError } from "../errors";

/**
 * Seed 004's error classes for model calls. Classification is separate from the retry plan so each is
 * table-tested on its own, and so the orchestrator can log which class a failure fell in even when it
 * is not retried.
 */

export const ERROR_CLASSES = [
  "timeout",
  "rate_limit",
  "server_error",
  "malformed_response",
  "permanent",
] as const;
export const ErrorClass = z.enum(ERROR_CLASSES);
export type ErrorClass = z.infer<typeof ErrorClass>;

export interface ClassifiedError {
  errorClass: ErrorClass;
  /** From `Retry-After` / `retry-after-ms`: how long the server asked us to wait. */
  retryAfterMs?: number;
  /**
   * Retries of this class already spent before the error reached us. The AI SDK model re-asks once
   * with a correction itself, so its ModelOutputError arrives with its one correction used up.
   */
  retriesSpent?: number;
  message: string;
}

type Headers = Readonly<Record<string, string | undefined>>;

function header(headers: Headers, name: string): string | undefined {
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
  return key === undefined ? undefined : headers[key]?.trim();
}

/**
 * `retry-after-ms` (OpenAI, Anthropic) wins over `Retry-After`, which is seconds or an HTTP date.
 * `nowMs` is passed in so the date form is testable without a clock.
 */
export function parseRetryAfter(headers: Headers | undefined, nowMs: number): number | undefined {
  if (!headers) return undefined;
  const ms = header(headers, "retry-after-ms");
  if (ms !== undefined && /^\d+(\.\d+)?$/.test(ms)) return Math.ceil(Number(ms));
  const value = header(headers, "retry-after");
  if (value === undefined || value === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

export function classifyHttpStatus(
  status: number,
  headers?: Headers,
  nowMs = 0,
): Pick<ClassifiedError, "errorClass" | "retryAfterMs"> {
  const retryAfterMs = parseRetryAfter(headers, nowMs);
  const withWait = (errorClass: ErrorClass) =>
    retryAfterMs === undefined ? { errorClass } : { errorClass, retryAfterMs };
  if (status === 408) return { errorClass: "timeout" };
  if (status === 429) return withWait("rate_limit");
  // 529 is Anthropic's "overloaded": a busy server, retried like a 5xx.
  if (status >= 500 && status !== 501 && status !== 505) return withWait("server_error");
  return { errorClass: "permanent" };
}

function isHeaders(value: unknown): value is Headers {
  return (
    typeof value === "object" &&
    value !== null &&
    Object.values(value).every((item) => typeof item === "string" || item === undefined)
  );
}

/** The first HTTP status (and its headers) in an error's cause chain: our errors wrap the SDK's. */
function httpOf(error: unknown, depth = 0): { status: number; headers?: Headers } | undefined {
  if (depth > 8 || typeof error !== "object" || error === null) return undefined;
  const statusCode = "statusCode" in error ? error.statusCode : "status" in error ? error.status : undefined;
  if (typeof statusCode === "number") {
    const headers =
      "responseHeaders" in error && isHeaders(error.responseHeaders) ? error.responseHeaders : undefined;
    return { status: statusCode, headers };
  }
  return "cause" in error ? httpOf(error.cause, depth + 1) : undefined;
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 300);
}

/**
 * Classifies what a model call threw. Unknown failures are `permanent`: retrying something we do not
 * understand only hides it, and a cancelled run must never be retried.
 */
export function classifyModelError(error: unknown, nowMs = Date.now()): ClassifiedError {
  const message = messageOf(error);
  if (error instanceof Error && error.name === "AbortError") return { errorClass: "permanent", message };
  if (error instanceof ModelOutputError) {
    return { errorClass: "malformed_response", retriesSpent: 1, message };
  }
  if (error instanceof ModelUnavailableError) {
    if (error.reason === "timeout") return { errorClass: "timeout", message };
    const http = httpOf(error.cause);
    if (error.reason === "server-error" && http) {
      return { ...classifyHttpStatus(http.status, http.headers, nowMs), message };
    }
    // Refused connections and unknown hosts are usually a server restarting: retried like a 5xx.
    return { errorClass: "server_error", message };
  }
  if (error instanceof ModelRequestError) return { ...classifyHttpStatus(error.status), message };
  if (error instanceof Error && error.name === "TimeoutError") return { errorClass: "timeout", message };
  const http = httpOf(error);
  if (http) return { ...classifyHttpStatus(http.status, http.headers, nowMs), message };
  return { errorClass: "permanent", message };
}
