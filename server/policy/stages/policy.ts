import { TOOL_NAMES, TOOL_SPECS, type ToolName } from "@/server/domain/tools/catalogue";
import {
  type ReasoningSwitch,
  STAGES,
  type Stage,
  stagePromptName,
  type UserMode,
} from "@/server/domain/vocabulary/stages";

/**
 * The stage policy (seed 001 §2.4, §5.2, §6): one pure table that decides, for a stage, the user's mode
 * and the user's reasoning switch, which tools the model may call, which prompt files make up its
 * system prompt and whether reasoning is required. Nothing else decides these; the request invariants
 * check every model call against this answer.
 */

export const REASONING_MACRO_PROMPT = "reasoning-macro";
export const REASONING_MICRO_PROMPT = "reasoning-micro";

export interface StagePolicy {
  stage: Stage;
  /** Echoed so a request can be checked against the user's choice, never the system's. */
  mode: UserMode;
  reasoning: ReasoningSwitch;
  /** False when this stage never runs in this mode/switch; tools and prompts are then empty. */
  allowed: boolean;
  /** Tool subset offered to the model, in catalogue order. */
  tools: readonly ToolName[];
  /** Prompt file names in composition order: base, project context, mode, stage, reasoning. */
  prompts: readonly string[];
  reasoningRequired: boolean;
  /** Why the stage is not allowed, for the log line; undefined when allowed. */
  reason?: string;
}

interface StageRule {
  modes: readonly UserMode[];
  /** Warmup is the macro reasoning pass: without the user's switch on it has nothing to do. */
  onlyWithReasoning: boolean;
}

/**
 * Chat answers questions about the project: it explores (discover), checks it answered (delivery) and
 * may get advisory QA. Everything that plans or changes the project belongs to Agent mode. Which tools
 * each stage offers is a fact of each tool's spec (`stages` in `server/domain/tools/`): seed 001 §6.2's
 * delivery-only step is in no tool's stages (it judges, it does not act), QA only in the read-only ones.
 */
const RULES: Record<Stage, StageRule> = {
  warmup: { modes: ["agent"], onlyWithReasoning: true },
  discover: { modes: ["agent", "chat"], onlyWithReasoning: false },
  contract: { modes: ["agent"], onlyWithReasoning: false },
  act: { modes: ["agent"], onlyWithReasoning: false },
  micro_step: { modes: ["agent"], onlyWithReasoning: false },
  verify: { modes: ["agent"], onlyWithReasoning: false },
  decompose: { modes: ["agent"], onlyWithReasoning: false },
  reflect: { modes: ["agent"], onlyWithReasoning: false },
  delivery_check: { modes: ["agent", "chat"], onlyWithReasoning: false },
  // QA is advisory (§2.3): read-only, whatever the mode.
  qa_review: { modes: ["agent", "chat"], onlyWithReasoning: false },
};

/** The tools whose spec offers them in this stage, in catalogue order. */
function toolsOfStage(stage: Stage): readonly ToolName[] {
  return TOOL_NAMES.filter((name) => (TOOL_SPECS[name].stages as readonly Stage[]).includes(stage));
}

export function stagePolicy(stage: Stage, mode: UserMode, reasoning: ReasoningSwitch): StagePolicy {
  const rule = RULES[stage];
  const denied = (reason: string): StagePolicy => ({
    stage,
    mode,
    reasoning,
    allowed: false,
    tools: [],
    prompts: [],
    reasoningRequired: false,
    reason,
  });
  if (!rule.modes.includes(mode)) return denied(`${mode} mode does not run the ${stage} stage`);
  if (rule.onlyWithReasoning && reasoning === "off") {
    return denied(`the ${stage} stage only runs when the user's reasoning switch is on`);
  }
  // Chat must never see a mutating tool, even if a later spec offers one in a shared stage.
  const stageTools = toolsOfStage(stage);
  const allowedTools = mode === "chat" ? stageTools.filter((tool) => TOOL_SPECS[tool].readOnly) : stageTools;
  const reasoningRequired = reasoning === "on";
  const reasoningPrompt = stage === "warmup" ? REASONING_MACRO_PROMPT : REASONING_MICRO_PROMPT;
  return {
    stage,
    mode,
    reasoning,
    allowed: true,
    tools: allowedTools,
    prompts: [
      "base-system",
      "project-context",
      `mode-${mode}`,
      stagePromptName(stage),
      ...(reasoningRequired ? [reasoningPrompt] : []),
    ],
    reasoningRequired,
  };
}

/** The stages a user mode can ever run, for the UI and for tests. */
export function stagesFor(mode: UserMode, reasoning: ReasoningSwitch): Stage[] {
  return STAGES.filter((stage) => stagePolicy(stage, mode, reasoning).allowed);
}
