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

export const TOOL_NAMES = [
  "fs.read",
  "fs.list",
  "fs.search",
  "fs.write",
  "fs.edit",
  "fs.delete",
  "git.status",
  "git.diff",
  "git.log",
  "git.add",
  "git.commit",
  "git.branch",
  "git.checkout",
  "shell.exec",
  "select_active_intent",
  "setup.run",
] as const;
export const ToolName = z.enum(TOOL_NAMES);
export type ToolName = z.infer<typeof ToolName>;

/**
 * Tools only the server calls, never offered to a model in any stage: `setup.run` runs the project's
 * setup command, approved by a person in the project's settings, once per new workspace.
 */
export const SERVER_ONLY_TOOLS: readonly ToolName[] = ["setup.run"];

/**
 * Tools that cannot change the workspace, the repository or the governance state. `shell.exec` is not
 * here (a command can do anything), nor is `select_active_intent` (it changes which intent owns writes).
 */
export const READ_ONLY_TOOLS = [
  "fs.read",
  "fs.list",
  "fs.search",
  "git.status",
  "git.diff",
  "git.log",
] as const satisfies readonly ToolName[];
export const ReadOnlyToolName = z.enum(READ_ONLY_TOOLS);
export type ReadOnlyToolName = z.infer<typeof ReadOnlyToolName>;

export function isReadOnlyTool(name: string): name is ReadOnlyToolName {
  return ReadOnlyToolName.safeParse(name).success;
}

export function isToolName(name: string): name is ToolName {
  return ToolName.safeParse(name).success;
}

/** Prompt files are kebab-case (the prompt repository refuses `_`), stage ids are snake_case. */
export function stagePromptName(stage: Stage): string {
  return `stage-${stage.replaceAll("_", "-")}`;
}
