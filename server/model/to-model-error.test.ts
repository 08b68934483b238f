import { APICallError, RetryError } from "ai";
import { describe, expect, it } from "vitest";
import { ModelError, ModelRequestError, ModelUnavailableError } from "./errors";
import { displayUrl, networkCode, redact, toModelError } from "./to-model-error";

const context = {
  baseUrl: "http://user:pw@localhost:4010/v1/?key=sk-secret",
  apiKey: "sk-secret",
  timeoutMs: 500,
  timedOut: false,
};

function apiError(statusCode: number | undefined, message: string, cause?: unknown) {
  return new APICallError({
    message,
    url: "http://localhost:4010/v1/chat/completions",
    requestBodyValues: {},
    statusCode,
    cause,
  });
}

function refused() {
  const socketError = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:4010"), {
    code: "ECONNREFUSED",
  });
  return new TypeError("fetch failed", { cause: socketError });
}

describe("toModelError", () => {
  it("reports a refused connection with the code and a credential-free address", () => {
    const error = toModelError(apiError(undefined, "Cannot connect to API", refused()), context);
    expect(error).toBeInstanceOf(ModelUnavailableError);
    expect(error.message).toBe("The model server is not reachable (ECONNREFUSED)");
    expect((error as ModelUnavailableError).reason).toBe("unreachable");
  });

  it("finds the code behind a RetryError and an AggregateError", () => {
    const aggregate = new AggregateError([Object.assign(new Error("x"), { code: "ENOTFOUND" })], "many");
    const retry = new RetryError({
      message: "failed after 2 attempts",
      reason: "maxRetriesExceeded",
      errors: [aggregate],
    });
    expect(toModelError(retry, context).message).toMatch(/not reachable \(ENOTFOUND\)$/);
  });

  it("reports our own timeout as such", () => {
    const error = toModelError(new DOMException("signal timed out", "TimeoutError"), {
      ...context,
      timedOut: true,
    });
    expect(error).toMatchObject({
      reason: "timeout",
      message: "The model server did not answer within 500 ms (timeout)",
    });
  });

  it.each([500, 503, 429])("treats HTTP %i as the server being unavailable", (status) => {
    const error = toModelError(apiError(status, "overloaded"), context);
    expect(error).toBeInstanceOf(ModelUnavailableError);
    expect(error.message).toBe(`The model server answered HTTP ${status}: overloaded`);
  });

  it("treats HTTP 4xx as a refused request and scrubs an echoed key", () => {
    const error = toModelError(apiError(401, "Incorrect API key provided: sk-secret"), context);
    expect(error).toBeInstanceOf(ModelRequestError);
    expect((error as ModelRequestError).status).toBe(401);
    expect(error.message).not.toContain("sk-secret");
    expect(error.message).toContain("[redacted]");
  });

  it("wraps anything else as a ModelError without the key", () => {
    const error = toModelError(new Error("weird sk-secret failure"), context);
    expect(error.constructor).toBe(ModelError);
    expect(error.message).toBe("The model call failed: weird [redacted] failure");
  });

  it("passes our own errors through", () => {
    const original = new ModelUnavailableError("x", "unreachable");
    expect(toModelError(original, context)).toBe(original);
  });
});

describe("helpers", () => {
  it("displayUrl drops credentials, query and trailing slash", () => {
    expect(displayUrl("https://a:b@api.example.com/v1/?token=t")).toBe("https://api.example.com/v1");
    expect(displayUrl("not a url")).toBe("(invalid URL)");
  });

  it("redact leaves text alone without a usable key", () => {
    expect(redact("abc", undefined)).toBe("abc");
    expect(redact("abc", "")).toBe("abc");
    expect(redact("key=abcd1234", "abcd1234")).toBe("key=[redacted]");
  });

  it("networkCode ignores codes that are not network failures", () => {
    expect(networkCode(Object.assign(new Error("x"), { code: "ERR_INVALID_ARG" }))).toBeUndefined();
    expect(networkCode("string")).toBeUndefined();
  });
});
