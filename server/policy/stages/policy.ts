import {
  READ_ONLY_TOOLS,
  type ReasoningSwitch,
  SERVER_ONLY_TOOLS,
  STAGES,
  type Stage,
  stagePromptName,
  TOOL_NAMES,
  type ToolName,
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
  /** Tool subset offered to the model, in vocabulary order. */
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
  tools: readonly ToolName[];
}

const NONE: readonly ToolName[] = [];
const READ: readonly ToolName[] = READ_ONLY_TOOLS;
/** Verification runs the project's tests, so it needs a shell, but never the file-writing tools. */
const READ_AND_SHELL: readonly ToolName[] = [...READ_ONLY_TOOLS, "shell.exec"];
const EVERYTHING: readonly ToolName[] = TOOL_NAMES.filter((name) => !SERVER_ONLY_TOOLS.includes(name));

/**
 * Chat answers questions about the project: it explores (discover), checks it answered (delivery) and
 * may get advisory QA. Everything that plans or changes the project belongs to Agent mode.
 */
const RULES: Record<Stage, StageRule> = {
  warmup: { modes: ["agent"], onlyWithReasoning: true, tools: READ },
  discover: { modes: ["agent", "chat"], onlyWithReasoning: false, tools: READ },
  contract: { modes: ["agent"], onlyWithReasoning: false, tools: READ },
  act: { modes: ["agent"], onlyWithReasoning: false, tools: EVERYTHING },
  // The follow-up request after a tool result continues the same work, so it keeps act's tools.
  micro_step: { modes: ["agent"], onlyWithReasoning: false, tools: EVERYTHING },
  verify: { modes: ["agent"], onlyWithReasoning: false, tools: READ_AND_SHELL },
  decompose: { modes: ["agent"], onlyWithReasoning: false, tools: READ },
  reflect: { modes: ["agent"], onlyWithReasoning: false, tools: READ },
  // Seed 001 §6.2: the delivery-only step has its tools disabled; it judges, it does not act.
  delivery_check: { modes: ["agent", "chat"], onlyWithReasoning: false, tools: NONE },
  // QA is advisory (§2.3): read-only, whatever the mode.
  qa_review: { modes: ["agent", "chat"], onlyWithReasoning: false, tools: READ },
};

function inVocabularyOrder(tools: readonly ToolName[]): readonly ToolName[] {
  return TOOL_NAMES.filter((name) => tools.includes(name));
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
  // Chat must never see a mutating tool, even if a later edit of RULES gives a shared stage one.
  const allowedTools = mode === "chat" ? rule.tools.filter((tool) => READ.includes(tool)) : rule.tools;
  const reasoningRequired = reasoning === "on";
  const reasoningPrompt = stage === "warmup" ? REASONING_MACRO_PROMPT : REASONING_MICRO_PROMPT;
  return {
    stage,
    mode,
    reasoning,
    allowed: true,
    tools: inVocabularyOrder(allowedTools),
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
