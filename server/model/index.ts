import { AiSdkModel } from "./ai-sdk-model";
import { createOfflineModel } from "./offline-model";
import type { AgentModel } from "./types";

export interface AgentModelConfig {
  /** OpenAI-compatible base URL; without one the built-in offline model is used. */
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
  const baseUrl = config.baseUrl?.trim();
  if (!baseUrl) return createOfflineModel();
  return new AiSdkModel({
    baseUrl,
    apiKey: config.apiKey,
    modelName: config.modelName,
    timeoutMs: config.timeoutMs,
  });
}

export { AiSdkModel, type AiSdkModelConfig } from "./ai-sdk-model";
export { ModelError, ModelOutputError, ModelRequestError, ModelUnavailableError } from "./errors";
export { createOfflineModel, OFFLINE_MODEL_ID } from "./offline-model";
export type { AgentModel, ChildProposal, ModelCallRecord, NextAction, Plan, PlanInput } from "./types";
