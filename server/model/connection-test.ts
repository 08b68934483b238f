import { generateText } from "ai";
import { ModelRequestError, ModelUnavailableError } from "./errors";
import { createLanguageModel, effectiveBaseUrl, type ProviderConfig } from "./providers";
import { displayUrl, toModelError } from "./to-model-error";

/** Why a connection test failed, in the words the settings page shows. */
export type ConnectionFailure =
  | "no-server"
  | "unreachable"
  | "timeout"
  | "bad-key"
  | "unknown-model"
  | "refused"
  | "server-error"
  | "other";

export type ConnectionResult =
  | { ok: true; latencyMs: number; model: string; server: string; reply: string }
  | { ok: false; reason: ConnectionFailure; message: string; latencyMs: number };

function reasonOf(error: unknown): ConnectionFailure {
  if (error instanceof ModelUnavailableError) return error.reason;
  if (error instanceof ModelRequestError) {
    if (error.status === 401 || error.status === 403) return "bad-key";
    if (error.status === 404) return "unknown-model";
    return "refused";
  }
  return "other";
}

const HINTS: Partial<Record<ConnectionFailure, string>> = {
  "bad-key": "Check the API key.",
  "unknown-model": "Check the model name.",
  unreachable: "Check the base URL and that the server is running.",
  timeout: "The server may be overloaded, or the timeout too short.",
};

/**
 * One tiny real request ("reply with OK", a few output tokens, no retries) with the given settings, so
 * a person learns at once whether the address, key and model name work. Never throws: every failure
 * becomes a reason and a message built by `toModelError`, which scrubs the key.
 */
export async function testConnection(
  config: ProviderConfig & { timeoutMs: number },
): Promise<ConnectionResult> {
  const startedAt = performance.now();
  const elapsed = () => Math.round(performance.now() - startedAt);
  const baseUrl = effectiveBaseUrl(config);
  if (!baseUrl) {
    return {
      ok: false,
      reason: "no-server",
      message: "Set a base URL: an OpenAI-compatible provider has no default address.",
      latencyMs: 0,
    };
  }
  const timeout = AbortSignal.timeout(config.timeoutMs);
  try {
    const result = await generateText({
      model: createLanguageModel(config),
      prompt: "Reply with the single word OK.",
      maxOutputTokens: 16,
      maxRetries: 0,
      abortSignal: timeout,
    });
    return {
      ok: true,
      latencyMs: elapsed(),
      model: config.modelName,
      server: displayUrl(baseUrl),
      reply: result.text.slice(0, 80),
    };
  } catch (thrown) {
    const error = toModelError(thrown, {
      baseUrl,
      apiKey: config.apiKey,
      timeoutMs: config.timeoutMs,
      timedOut: timeout.aborted,
    });
    const reason = reasonOf(error);
    const hint = HINTS[reason];
    return {
      ok: false,
      reason,
      // The connection test is for people who may change the settings: it names the address it tried.
      message: `${displayUrl(baseUrl)}: ${hint ? `${error.message.replace(/[.\s]*$/, ".")} ${hint}` : error.message}`,
      latencyMs: elapsed(),
    };
  }
}
