import type { ProviderId } from "@/server/domain/vocabulary/providers";
import { AiSdkModel } from "./ai-sdk-model";
import { createOfflineModel } from "./offline-model";
import { effectiveBaseUrl } from "./providers";
import type { AgentModel } from "./types";

export interface AgentModelConfig {
  /** Default "openai-compatible". */
  provider?: ProviderId;
  /**
   * The model server's base URL. An OpenAI-compatible provider without one means the built-in offline
   * model; OpenAI and Anthropic fall back to their public APIs.
   */
  baseUrl?: string;
  apiKey?: string;
  modelName: string;
  timeoutMs: number;
}

/**
 * Picks the model behind the port from configuration. Takes plain values (the lead passes them from
 * `@/server/env`) so that this module, and its tests, never read the process environment.
 */
export function createAgentModel(config: AgentModelConfig): AgentModel {
  const provider = config.provider ?? "openai-compatible";
  const baseUrl = effectiveBaseUrl({ provider, baseUrl: config.baseUrl });
  if (!baseUrl) return createOfflineModel();
  return new AiSdkModel({
    provider,
    baseUrl,
    apiKey: config.apiKey,
    modelName: config.modelName,
    timeoutMs: config.timeoutMs,
  });
}

export { AiSdkModel } from "./ai-sdk-model";
export { createOfflineModel, OFFLINE_MODEL_ID } from "./offline-model";
export type { AgentModel } from "./types";
