import {
  fillTemplate,
  loadPrompt,
  PromptError,
  type PromptOptions,
  placeholdersOf,
} from "@/server/model/prompts";
import type { StagePolicy } from "@/server/policy/stages/policy";
import {
  PROMPT_VARIABLES,
  PromptVariable,
  type PromptVariables,
} from "@/server/policy/stages/prompt-variables";

/**
 * Builds a stage's system prompt from the policy's prompt list (seed 001 §5.2: base, project context,
 * mode, stage, reasoning). The policy chooses the files; this module only loads and fills them, so the
 * composition order cannot differ from what the invariants check.
 */

export interface ComposeOptions extends PromptOptions {
  /** Reads a prompt file by name; tests pass an in-memory map. */
  load?: (name: string) => string;
}

export function composeSystemPrompt(
  policy: StagePolicy,
  vars: PromptVariables,
  options: ComposeOptions = {},
): string {
  if (!policy.allowed) {
    throw new PromptError(
      `No prompt for ${policy.stage} in ${policy.mode} mode: ${policy.reason ?? "not allowed"}`,
    );
  }
  const load = options.load ?? ((name: string) => loadPrompt(name, options));
  return policy.prompts
    .map((name) => {
      const template = load(name);
      const used = placeholdersOf(template);
      const foreign = used.filter((key) => !PromptVariable.safeParse(key).success);
      if (foreign.length > 0) {
        throw new PromptError(`Prompt "${name}" uses variables outside seed 001 §5.3: ${foreign.join(", ")}`);
      }
      // Each file gets exactly the values it uses: fillTemplate rejects unused ones, and one shared set
      // of variables feeds files that each use a different part of it.
      const subset: Record<string, string> = {};
      for (const key of PROMPT_VARIABLES) {
        const value = vars[key];
        if (used.includes(key) && value !== undefined) subset[key] = value;
      }
      return fillTemplate(name, template, subset);
    })
    .join("\n\n");
}
