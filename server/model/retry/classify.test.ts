import { APICallError } from "ai";
import { describe, expect, it } from "vitest";
import { ModelOutputError, ModelRequestError, ModelUnavailableError } from "../errors";
import { classifyHttpStatus, classifyModelError, parseRetryAfter } from "./classify";

const NOW = Date.parse("2026-01-01T00:00:00Z");

function apiError(statusCode: number, responseHeaders?: Record<string, string>): APICallError {
  return new APICallError({
    message: `HTTP ${statusCode}`,
    url: "http://x/v1",
    requestBodyValues: {},
    statusCode,
    responseHeaders,
  });
}

const call = { stage: "act", modelId: "m", offline: false, tokensIn: 1, tokensOut: 1, latencyMs: 1 } as const;

describe("parseRetryAfter", () => {
  it.each([
    [{ "Retry-After": "7" }, 7000],
    [{ "retry-after": "0.5" }, 500],
    [{ "retry-after-ms": "1234.2", "retry-after": "60" }, 1235],
    [{ "retry-after": "Thu, 01 Jan 2026 00:00:30 GMT" }, 30_000],
    [{ "retry-after": "Wed, 31 Dec 2025 23:00:00 GMT" }, 0],
    [{ "retry-after": "soon" }, undefined],
    [{ "retry-after": "" }, undefined],
    [{}, undefined],
    [undefined, undefined],
  ])("%j → %s", (headers, expected) => {
    expect(parseRetryAfter(headers, NOW)).toBe(expected);
  });
});

describe("classifyHttpStatus", () => {
  it.each([
    [408, "timeout"],
    [429, "rate_limit"],
    [500, "server_error"],
    [502, "server_error"],
    [503, "server_error"],
    [529, "server_error"],
    [501, "permanent"],
    [400, "permanent"],
    [401, "permanent"],
    [404, "permanent"],
  ])("HTTP %i is %s", (status, errorClass) => {
    expect(classifyHttpStatus(status).errorClass).toBe(errorClass);
  });

  it("carries Retry-After for rate limits and overloaded servers only", () => {
    expect(classifyHttpStatus(429, { "retry-after": "9" })).toEqual({
      errorClass: "rate_limit",
      retryAfterMs: 9000,
    });
    expect(classifyHttpStatus(503, { "retry-after": "2" })).toEqual({
      errorClass: "server_error",
      retryAfterMs: 2000,
    });
    expect(classifyHttpStatus(400, { "retry-after": "2" })).toEqual({ errorClass: "permanent" });
  });
});

describe("classifyModelError", () => {
  it.each([
    ["our timeout", new ModelUnavailableError("t", "timeout"), "timeout"],
    ["connection refused", new ModelUnavailableError("u", "unreachable"), "server_error"],
    ["a 5xx", new ModelUnavailableError("s", "server-error", { cause: apiError(502) }), "server_error"],
    ["a 5xx without its cause", new ModelUnavailableError("s", "server-error"), "server_error"],
    ["a bad key", new ModelRequestError("k", 401), "permanent"],
    ["an unknown model", new ModelRequestError("m", 404), "permanent"],
    ["a 429 as a request error", new ModelRequestError("r", 429), "rate_limit"],
    ["a raw SDK 503", apiError(503), "server_error"],
    ["AbortSignal.timeout", new DOMException("t", "TimeoutError"), "timeout"],
    ["a cancelled run", new DOMException("a", "AbortError"), "permanent"],
    ["anything else", new Error("boom"), "permanent"],
    ["a thrown string", "boom", "permanent"],
  ])("%s → %s", (_, error, errorClass) => {
    expect(classifyModelError(error, NOW).errorClass).toBe(errorClass);
  });

  it("reads Retry-After through our error's cause chain", () => {
    const error = new ModelUnavailableError("s", "server-error", {
      cause: apiError(429, { "Retry-After": "42" }),
    });
    expect(classifyModelError(error, NOW)).toMatchObject({ errorClass: "rate_limit", retryAfterMs: 42_000 });
  });

  it("marks a ModelOutputError as malformed with its one correction already spent", () => {
    expect(classifyModelError(new ModelOutputError("bad", call), NOW)).toEqual({
      errorClass: "malformed_response",
      retriesSpent: 1,
      message: "bad",
    });
  });
});
