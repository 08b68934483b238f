import { tool } from "ai";
import type { PromptIntent } from "@/server/domain/intent/prompt-intent";
import type { Ask } from "./ask";
import { renderPrompt } from "./prompts";
import type { ContractInput, DiscoverInput } from "./types";
import {
  interpretContract,
  interpretIntent,
  type ModelContract,
  ProposeContractInput,
  ReportIntentInput,
  UNDERSTANDING_TOOL_DESCRIPTIONS,
} from "./understanding-tools";

/**
 * The two understanding requests as the AI SDK model sends them: one answer tool each, no workspace
 * tools (the engine listed the workspace already and gives its summary), one corrective re-ask like
 * every other request.
 */

const NOTHING_KNOWN = "(nothing known yet)";

export function discoverIntentAsk(input: DiscoverInput, dir?: string): Ask<PromptIntent> {
  return {
    stage: "discover",
    workspaceTools: [],
    request: input.request,
    instructions: renderPrompt(
      "discover-intent",
      { repoSummary: input.repoSummary?.trim() || NOTHING_KNOWN },
      { dir },
    ),
    userMessage: input.prompt,
    tools: {
      report_intent: tool({
        description: UNDERSTANDING_TOOL_DESCRIPTIONS.report_intent,
        inputSchema: ReportIntentInput,
      }),
    },
    interpret: interpretIntent,
  };
}

export function contractAsk(input: ContractInput, dir?: string): Ask<ModelContract> {
  return {
    stage: "contract",
    workspaceTools: [],
    request: input.request,
    instructions: renderPrompt(
      "build-contract",
      { task: input.task, repoSummary: input.repoSummary?.trim() || NOTHING_KNOWN },
      { dir },
    ),
    userMessage: `Intention: ${input.what}\nAcceptance: ${input.acceptance || "(none given)"}`,
    tools: {
      propose_contract: tool({
        description: UNDERSTANDING_TOOL_DESCRIPTIONS.propose_contract,
        inputSchema: ProposeContractInput,
      }),
    },
    interpret: interpretContract,
  };
}
