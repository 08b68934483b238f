import type { ModelCallRecord } from "./call-record";

/**
 * The small catalogue of model failures the orchestrator can tell apart. Their messages are built here
 * from safe parts only (server address, status, error code), never from request headers, so they can
 * be logged and shown in the browser without leaking an API key.
 */
export class ModelError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ModelError";
  }
}

/** The model server could not be reached or did not answer: refused, unknown host, timeout, HTTP 5xx/429. */
export class ModelUnavailableError extends ModelError {
  constructor(
    message: string,
    readonly reason: "unreachable" | "timeout" | "server-error",
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "ModelUnavailableError";
  }
}

/** The server answered but refused the request (HTTP 4xx: bad key, unknown model, bad request). */
export class ModelRequestError extends ModelError {
  constructor(
    message: string,
    readonly status: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "ModelRequestError";
  }
}

/**
 * The model answered, but not with a valid tool call, even after one corrective re-ask. `call` carries
 * the tokens and time spent so the caller can still account for them.
 */
export class ModelOutputError extends ModelError {
  constructor(
    message: string,
    readonly call: ModelCallRecord,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "ModelOutputError";
  }
}
