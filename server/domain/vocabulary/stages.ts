import { z } from "zod";
import { REASONING_SWITCHES, ReasoningSwitch, USER_MODES, UserMode } from "./session";

/**
 * The words the stage policy speaks. Each vocabulary is defined once (const list → zod enum → type) so
 * the policy table, the request log and the UI cannot drift apart. The user mode and the reasoning
 * switch already live in the event vocabulary (runs record them); they are re-exported here.
 */

export { REASONING_SWITCHES, ReasoningSwitch, USER_MODES, UserMode };

/** Every kind of model request the loop makes; each has its own prompt file and tool subset. */
export const STAGES = [
  "warmup",
  "discover",
  "contract",
  "act",
  "micro_step",
  "verify",
  "decompose",
  "reflect",
  "delivery_check",
  "qa_review",
] as const;
export const Stage = z.enum(STAGES);
export type Stage = z.infer<typeof Stage>;

/** Prompt files are kebab-case (the prompt repository refuses `_`), stage ids are snake_case. */
export function stagePromptName(stage: Stage): string {
  return `stage-${stage.replaceAll("_", "-")}`;
}
