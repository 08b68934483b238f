import { composeSystemPrompt } from "@/server/model/compose-prompt";
import { stagePolicy } from "@/server/policy/stages/policy";
import type { PromptOptions } from "../prompts";
import { checkModelRequest, type RequestContext } from "../request-check";
import type { WarmupInput } from "./types";

/**
 * The macro warmup as one model request (seed 001 §4.1): the `warmup` stage's composed prompt (base,
 * project, mode, stage, and the macro reasoning prompt the policy adds when the person's switch is
 * on), the policy's read-only tools — its "Research" may look at the repository, a few reads through
 * the engine's read port (`warmup-turn.ts`) — and a plain text answer; it changes nothing.
 * The policy allows the warmup only in Agent mode with reasoning on; any other request is refused
 * here, before anything is sent.
 */

export function warmupInstructions(request: RequestContext, options: PromptOptions = {}): string {
  const policy = stagePolicy("warmup", request.mode, request.reasoning);
  const toolSummary = policy.tools.length > 0 ? policy.tools.join(", ") : "none in this step";
  const instructions = composeSystemPrompt(
    policy,
    { project_root: "/workspace", tool_summary: toolSummary },
    options,
  );
  checkModelRequest({ ...request, stage: "warmup", tools: [...policy.tools], system: instructions });
  return instructions;
}

/** The tools the warmup offers: the stage policy's (read-only, Agent mode with reasoning on). */
export function warmupTools(request: RequestContext) {
  return stagePolicy("warmup", request.mode, request.reasoning).tools;
}

export function warmupUserMessage(input: WarmupInput): string {
  const known = input.repoSummary?.trim() || "(nothing discovered yet)";
  return `The request:\n\n${input.task}\n\nWhat intent discovery found in the workspace:\n\n${known}`;
}
