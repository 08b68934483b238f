import { z } from "zod";

/**
 * What a composed system prompt may contain (seed 001 §5.3): the variables it may use, and the marker
 * only reasoning prompts carry. `server/model/compose-prompt.ts` fills prompts within these rules; the
 * request invariants (invariants.ts) check them.
 */

/** Seed 001 §5.3: the only variables a composed prompt may use. */
export const PROMPT_VARIABLES = ["project_root", "user_input", "tool_summary", "last_step_outcome"] as const;
export const PromptVariable = z.enum(PROMPT_VARIABLES);
export type PromptVariable = z.infer<typeof PromptVariable>;
export type PromptVariables = Partial<Record<PromptVariable, string>>;

/** Text every reasoning prompt asks for and no other prompt contains; the invariant check looks for it. */
export const REASONING_MARKER = "<ide_reasoning>";
