import type { ReasoningOutcome } from "@/server/domain/policy/reasoning-outcome";
import { type PromptOptions, renderPrompt } from "../prompts";

/**
 * The compact ReasoningOutcome as later requests of a run see it (seed 001 §4.3): four short lines
 * rendered through `prompts/reasoning-outcome.md`, appended to the stage's instructions. The full
 * reasoning text never goes back to the model.
 */

export function outcomeLines(outcome: ReasoningOutcome): string {
  const line = (name: keyof ReasoningOutcome, value: string) => `- ${name}: ${value.trim() || "(none)"}`;
  return [
    line("plan_delta", outcome.plan_delta),
    line("next_action", outcome.next_action),
    line("known_risks", outcome.known_risks),
    line("delivery_state", outcome.delivery_state),
  ].join("\n");
}

export function withOutcome(
  instructions: string,
  outcome: ReasoningOutcome | undefined,
  options: PromptOptions = {},
): string {
  if (!outcome) return instructions;
  return `${instructions}\n\n${renderPrompt("reasoning-outcome", { outcome: outcomeLines(outcome) }, options)}`;
}
