import { generateText, type LanguageModel } from "ai";
import { composeSystemPrompt } from "@/server/policy/stages/compose";
import { stagePolicy } from "@/server/policy/stages/policy";
import type { PromptOptions } from "../prompts";
import { checkModelRequest, type RequestContext } from "../request-check";
import type { WarmupInput } from "./types";

/**
 * The macro warmup as one model request (seed 001 §4.1): the `warmup` stage's composed prompt (base,
 * project, mode, stage, and the macro reasoning prompt the policy adds when the person's switch is
 * on), no tools — the warmup plans, it reads nothing and changes nothing — and a plain text answer.
 * The policy allows the warmup only in Agent mode with reasoning on; any other request is refused
 * here, before anything is sent.
 */

/** The warmup offers no tools, so the stage prompt says so instead of listing any. */
const NO_TOOLS = "none in this step (plan from the request and what is known about the workspace)";

export function warmupInstructions(request: RequestContext, options: PromptOptions = {}): string {
  const policy = stagePolicy("warmup", request.mode, request.reasoning);
  const instructions = composeSystemPrompt(
    policy,
    { project_root: "/workspace", tool_summary: NO_TOOLS },
    options,
  );
  checkModelRequest({ ...request, stage: "warmup", tools: [], toolMatch: "subset", system: instructions });
  return instructions;
}

export function warmupUserMessage(input: WarmupInput): string {
  const known = input.repoSummary?.trim() || "(nothing discovered yet)";
  return `The request:\n\n${input.task}\n\nWhat intent discovery found in the workspace:\n\n${known}`;
}

export interface WarmupSend {
  model: LanguageModel;
  instructions: string;
  userMessage: string;
  abortSignal: AbortSignal;
  maxRetries: number;
}

export async function sendWarmup(send: WarmupSend) {
  const result = await generateText({
    model: send.model,
    instructions: send.instructions,
    messages: [{ role: "user", content: send.userMessage }],
    temperature: 0,
    abortSignal: send.abortSignal,
    maxRetries: send.maxRetries,
  });
  return { text: result.text, tokensIn: result.usage.inputTokens, tokensOut: result.usage.outputTokens };
}
