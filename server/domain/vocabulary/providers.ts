import { z } from "zod";

/**
 * Which AI SDK provider package talks to the model server. Shared by the server and the settings page
 * (pure data, no server imports), so both spell the choices the same way.
 */
export const PROVIDER_IDS = ["openai-compatible", "openai", "anthropic"] as const;
export const ProviderId = z.enum(PROVIDER_IDS);
export type ProviderId = z.infer<typeof ProviderId>;

export const PROVIDER_LABELS: Record<ProviderId, string> = {
  "openai-compatible": "OpenAI-compatible (Ollama, vLLM, LM Studio, OpenRouter…)",
  openai: "OpenAI",
  anthropic: "Anthropic",
};

/** A provider's name in a model's label ("gpt-4o-mini (OpenAI-compatible)"). */
export const PROVIDER_SHORT_LABELS: Record<ProviderId, string> = {
  "openai-compatible": "OpenAI-compatible",
  openai: "OpenAI",
  anthropic: "Anthropic",
};

/** Where each provider's server lives when no base URL is configured. */
export const DEFAULT_BASE_URLS: Record<ProviderId, string | null> = {
  openai: "https://api.openai.com/v1",
  anthropic: "https://api.anthropic.com/v1",
  // An OpenAI-compatible server has no canonical address: without one, the offline model is used.
  "openai-compatible": null,
};

/**
 * Presets of the OpenAI-compatible provider: nothing but the usual base URL of each server, offered
 * in the settings page so a person does not have to remember ports.
 */
export const COMPATIBLE_PRESETS = [
  { id: "ollama", label: "Ollama", baseUrl: "http://localhost:11434/v1" },
  { id: "vllm", label: "vLLM", baseUrl: "http://localhost:8000/v1" },
  { id: "lm-studio", label: "LM Studio", baseUrl: "http://localhost:1234/v1" },
  { id: "openrouter", label: "OpenRouter", baseUrl: "https://openrouter.ai/api/v1" },
] as const;
