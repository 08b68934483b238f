import { APICallError, RetryError } from "ai";
import { ModelError, ModelRequestError, ModelUnavailableError } from "./errors";

/**
 * Turns whatever the AI SDK or fetch threw into one of our typed errors with a message a person can
 * act on. Messages are assembled from safe parts only, and the API key is scrubbed from anything the
 * server echoed back (some providers quote the key they rejected).
 */

export interface ErrorContext {
  baseUrl: string;
  apiKey?: string;
  timeoutMs: number;
  /** True when our own per-request timeout fired (as opposed to the caller cancelling). */
  timedOut: boolean;
}

const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_SOCKET",
  "UND_ERR_HEADERS_TIMEOUT",
]);

/** The server's address without credentials or query string, which may carry secrets. */
export function displayUrl(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, "")}`;
  } catch {
    return "(invalid URL)";
  }
}

export function redact(text: string, apiKey: string | undefined): string {
  return apiKey && apiKey.length >= 4 ? text.replaceAll(apiKey, "[redacted]") : text;
}

/** The first network error code found in an error's cause chain (fetch wraps the socket error). */
export function networkCode(error: unknown, depth = 0): string | undefined {
  if (depth > 8 || typeof error !== "object" || error === null) return undefined;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === "string" && NETWORK_CODES.has(code)) return code;
  const nested = [cause, ...(Array.isArray(errors) ? errors : [])];
  for (const inner of nested) {
    const found = networkCode(inner, depth + 1);
    if (found) return found;
  }
  return undefined;
}

function unwrapRetries(error: unknown): unknown {
  return RetryError.isInstance(error) ? (error.lastError ?? error) : error;
}

export function toModelError(thrown: unknown, context: ErrorContext): ModelError {
  if (thrown instanceof ModelError) return thrown;
  // Never the address: these messages land in events and failure reasons that every team member,
  // viewers included, can read; the settings page's connection test names the address for admins.
  const where = "The model server";
  const error = unwrapRetries(thrown);
  if (context.timedOut) {
    return new ModelUnavailableError(
      `${where} did not answer within ${context.timeoutMs} ms (timeout)`,
      "timeout",
      {
        cause: error,
      },
    );
  }
  const code = networkCode(error);
  if (code)
    return new ModelUnavailableError(`${where} is not reachable (${code})`, "unreachable", { cause: error });
  if (APICallError.isInstance(error) && error.statusCode !== undefined) {
    const status = error.statusCode;
    const detail = redact(error.message, context.apiKey).slice(0, 300);
    if (status >= 500 || status === 429 || status === 408) {
      return new ModelUnavailableError(`${where} answered HTTP ${status}: ${detail}`, "server-error", {
        cause: error,
      });
    }
    return new ModelRequestError(`${where} refused the request (HTTP ${status}): ${detail}`, status, {
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ModelError(`The model call failed: ${redact(message, context.apiKey).slice(0, 300)}`, {
    cause: error,
  });
}
