import "server-only";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModel } from "ai";
import { DEFAULT_BASE_URLS, type ProviderId } from "@/server/domain/vocabulary/providers";

export interface ProviderConfig {
  provider: ProviderId;
  /** Empty means the provider's own default address (OpenAI, Anthropic). */
  baseUrl?: string;
  apiKey?: string;
  modelName: string;
  /** Extra headers on every request (OpenRouter's HTTP-Referer, or `x-fake-scenario` in tests). */
  headers?: Record<string, string>;
}

/** The address requests go to: the configured one, else the provider's default. */
export function effectiveBaseUrl(config: Pick<ProviderConfig, "provider" | "baseUrl">): string | null {
  const configured = config.baseUrl?.trim();
  return configured ? configured : DEFAULT_BASE_URLS[config.provider];
}

/**
 * A language model from one of the AI SDK provider packages. Always an explicit provider instance: a
 * bare model string would route to the hosted AI Gateway. The API key is passed explicitly, even when
 * empty, so the SDK never falls back to reading OPENAI_API_KEY / ANTHROPIC_API_KEY from the process.
 */
export function createLanguageModel(config: ProviderConfig): LanguageModel {
  const baseURL = effectiveBaseUrl(config);
  if (!baseURL) throw new Error(`The ${config.provider} provider needs a base URL.`);
  // A keyless local server (Ollama) still gets a placeholder: the SDK refuses a missing key outright.
  const apiKey = config.apiKey ?? "";
  switch (config.provider) {
    case "openai":
      // The chat-completions endpoint: tool calling works the same there for every OpenAI model, and
      // it is the endpoint OpenAI-compatible proxies in front of OpenAI also implement.
      return createOpenAI({ baseURL, apiKey: apiKey || "none", headers: config.headers }).chat(
        config.modelName,
      );
    case "anthropic":
      return createAnthropic({ baseURL, apiKey: apiKey || "none", headers: config.headers })(
        config.modelName,
      );
    case "openai-compatible":
      return createOpenAICompatible({
        name: "openai-compatible",
        baseURL,
        apiKey: config.apiKey,
        headers: config.headers,
        includeUsage: true,
      })(config.modelName);
  }
}
