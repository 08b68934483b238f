import { REASONING_SWITCHES, STAGES, USER_MODES } from "@/server/domain/vocabulary/stages";
import { stagePolicy } from "@/server/policy/stages/policy";
import { PROMPT_VARIABLES } from "@/server/policy/stages/prompt-variables";
import { checkActPrompt } from "./act-prompt";
import { checkCorrectionPrompts } from "./corrections";
import { fillTemplate, loadPrompt, PromptError, type PromptOptions, placeholdersOf } from "./prompts";

/**
 * Every prompt file the model layer renders, with the variables its code passes (issue #4: an
 * unknown variable or a missing file is an error at startup, not at run time). The act prompt and
 * the correction prompts have checks of their own; the composed system prompts (base, project
 * context, mode, stage, reasoning) may only use seed 001's composition variables.
 */
export const TASK_PROMPTS: Readonly<Record<string, readonly string[]>> = {
  decompose: ["minChildren", "maxChildren", "repoSummary"],
  redecompose: ["minChildren", "maxChildren", "repoSummary", "failureSummary"],
  "discover-intent": ["repoSummary"],
  "build-contract": ["task", "repoSummary"],
  "delivery-check": ["task", "instructions", "outcome", "qa"],
  "qa-feedback": ["notes"],
  "librarian-files": ["files"],
  "role-librarian": ["task", "files", "priorAttempts"],
  "role-critic": ["task"],
  "role-chaos": ["task", "framework"],
};

/** Composed into each request's system prompt by `server/policy/stages/compose.ts`. */
export const COMPOSED_PROMPT =
  /^(base-system|project-context|mode-.+|stage-.+|reasoning-macro|reasoning-micro)$/;

export function checkPromptFiles(options: PromptOptions = {}): void {
  checkCorrectionPrompts(options);
  checkActPrompt(options);
  for (const [name, variables] of Object.entries(TASK_PROMPTS)) {
    fillTemplate(name, loadPrompt(name, options), Object.fromEntries(variables.map((v) => [v, `<${v}>`])));
  }
  // Every file the stage policy composes, for every stage, mode and switch.
  const composed = new Set<string>();
  for (const stage of STAGES)
    for (const mode of USER_MODES)
      for (const reasoning of REASONING_SWITCHES)
        for (const name of stagePolicy(stage, mode, reasoning).prompts) composed.add(name);
  for (const name of composed) checkComposedPrompt(name, options);
}

/** A composed prompt that names a variable composition never fills. */
export function checkComposedPrompt(name: string, options: PromptOptions = {}): void {
  const allowed = new Set<string>(PROMPT_VARIABLES);
  const unknown = placeholdersOf(loadPrompt(name, options)).filter((variable) => !allowed.has(variable));
  if (unknown.length > 0)
    throw new PromptError(
      `Prompt "${name}": unknown variable(s) ${unknown.map((v) => `{{${v}}}`).join(", ")}`,
    );
}
