import {
  DEFAULT_MCP_TOOL_RISK,
  type McpStageChoice,
  type McpToolRisk,
  stagesOfChoice,
} from "@/server/domain/tools/mcp";
import { CHANGING_STAGES } from "@/server/domain/tools/spec";
import type { ReasoningSwitch, Stage, UserMode } from "@/server/domain/vocabulary/stages";
import { stagePolicy } from "./policy";

/**
 * Which of a project's MCP tools a model request may be offered (issue #21.2): the stage policy's
 * answer for tools that are not in the static catalogue. Only the changing stages (act and its
 * follow-up) may offer a tool that asks a person; every other stage only looks, so it gets the tools
 * the project marked Safe, and Chat mode (read-only, no approvals) likewise. A tool the project turned
 * off is never offered, a risk nobody set is Ask (fail closed), and a stage the person's mode or
 * switch does not run offers nothing.
 */
export interface McpOfferQuestion {
  stage: Stage;
  mode: UserMode;
  reasoning: ReasoningSwitch;
  /** The project's stage choice for the tool's server. */
  choice: McpStageChoice;
  /** The project's setting for the tool; undefined: nobody set it. */
  setting: McpToolRisk | undefined;
}

export function mcpToolOffered(question: McpOfferQuestion): boolean {
  const setting = question.setting ?? DEFAULT_MCP_TOOL_RISK;
  if (setting === "off") return false;
  if (!stagePolicy(question.stage, question.mode, question.reasoning).allowed) return false;
  if (!stagesOfChoice(question.choice).includes(question.stage)) return false;
  const changing = (CHANGING_STAGES as readonly Stage[]).includes(question.stage);
  // A looking stage, or Chat, must never change anything: only what the project called Safe runs there.
  if (question.mode === "chat" || !changing) return setting === "safe";
  return true;
}
