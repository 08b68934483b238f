import { type ToolSet, tool } from "ai";
import type { Plan } from "./actions";
import type { Ask } from "./ask";
import { MAX_CHILDREN, MIN_CHILDREN } from "./heuristics/split-task";
import { renderPrompt } from "./prompts";
import { withOutcome } from "./reasoning/outcome-prompt";
import {
  CannotDecomposeInput,
  FORCED_PLAN_TOOLS,
  interpretPlan,
  PLAN_TOOLS,
  ProposeDecompositionInput,
  TOOL_DESCRIPTIONS,
  WorkDirectlyInput,
} from "./tool-inputs";
import type { PlanInput } from "./types";

/**
 * The plan step as the AI SDK model asks it: work directly or propose a decomposition, one answer
 * tool call, no workspace tools. When the engine requires a split (`mustDecompose`), working directly
 * is not offered and the model may say it cannot decompose.
 */

const planTools = {
  work_directly: tool({ description: TOOL_DESCRIPTIONS.work_directly, inputSchema: WorkDirectlyInput }),
  propose_decomposition: tool({
    description: TOOL_DESCRIPTIONS.propose_decomposition,
    inputSchema: ProposeDecompositionInput,
  }),
} satisfies ToolSet;

/** When the engine requires a split, working directly is not offered. */
const forcedPlanTools = {
  propose_decomposition: planTools.propose_decomposition,
  cannot_decompose: tool({
    description: TOOL_DESCRIPTIONS.cannot_decompose,
    inputSchema: CannotDecomposeInput,
  }),
} satisfies ToolSet;

export function planAsk(input: PlanInput, dir?: string): Ask<Plan> {
  const repoSummary = input.repoSummary?.trim() || "(nothing known yet)";
  const vars = { minChildren: String(MIN_CHILDREN), maxChildren: String(MAX_CHILDREN), repoSummary };
  const forced = input.mustDecompose === true;
  const failureSummary = input.failureSummary?.trim() || "(no attempt recorded)";
  return {
    stage: "decompose",
    workspaceTools: [],
    request: input.request,
    instructions: withOutcome(
      forced
        ? renderPrompt("redecompose", { ...vars, failureSummary }, { dir })
        : renderPrompt("decompose", vars, { dir }),
      input.reasoning,
      { dir },
    ),
    userMessage: input.task,
    tools: forced ? forcedPlanTools : planTools,
    interpret: (calls, text) => interpretPlan(calls, text, forced ? FORCED_PLAN_TOOLS : PLAN_TOOLS),
  };
}
