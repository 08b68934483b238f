import { type PromptOptions, renderPrompt } from "./prompts";
import type { ActInput } from "./types";

/**
 * The act request's instructions (prompts/act.md): the tool guidance, the task, and one context body
 * built fresh from the store for this request (server/riva/decide/act-context.ts with buildContext). Kept out
 * of ai-sdk-model.ts so the benchmark measures exactly what the model is sent.
 */

/**
 * The context body: the built one when the engine gave it; else (a caller that builds no context)
 * the same sections from the plain fields, so the prompt never has a hole.
 */
export function actContextText(input: ActInput): string {
  if (input.context !== undefined && input.context.trim() !== "") return input.context.trim();
  const attempts =
    input.previousAttempts.length === 0
      ? "(none: this is the first attempt)"
      : input.previousAttempts.map((attempt, index) => `${index + 1}. ${attempt}`).join("\n");
  return [
    `## How we will know the intention is done\n\n${input.acceptance}`,
    `## Earlier attempts at this intention\n\n${attempts}`,
    `## The repository now\n\n${input.repoContext?.trim() || "(not read for this turn)"}`,
  ].join("\n\n");
}

export function actInstructions(input: ActInput, maxReads: number, options: PromptOptions = {}): string {
  return renderPrompt(
    "act",
    { task: input.task, maxReads: String(maxReads), context: actContextText(input) },
    options,
  );
}

/** Renders the act prompt with sample values, so a renamed variable stops the server at startup. */
export function checkActPrompt(options: PromptOptions = {}): void {
  actInstructions({ task: "<task>", what: "<what>", acceptance: "", previousAttempts: [] }, 1, options);
}
