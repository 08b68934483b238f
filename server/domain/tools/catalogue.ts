import { z } from "zod";
import { fsDeleteSpec } from "./fs-delete";
import { fsEditSpec } from "./fs-edit";
import { fsListSpec } from "./fs-list";
import { fsReadSpec } from "./fs-read";
import { fsSearchSpec } from "./fs-search";
import { fsWriteSpec } from "./fs-write";
import { gitAddSpec } from "./git-add";
import { gitBranchSpec } from "./git-branch";
import { gitCheckoutSpec } from "./git-checkout";
import { gitCommitSpec } from "./git-commit";
import { gitDiffSpec } from "./git-diff";
import { gitLogSpec } from "./git-log";
import { gitStatusSpec } from "./git-status";
import type { RiskClass, ToolCategory } from "./risk";
import { selectActiveIntentSpec } from "./select-active-intent";
import { setupRunSpec } from "./setup-run";
import { shellExecSpec } from "./shell-exec";
import type { ToolSpec } from "./spec";

/**
 * Every tool the agent has, in the order the model's tool lists show them. This list is the tool
 * vocabulary: the names, the risk and category the approval gate reads, the stages the stage policy
 * offers, the wire names providers see are all derived from it, so nothing can disagree with it.
 * Adding a tool: a spec file here, an `execute` in `server/tools/`, an entry in `server/tools/registry.ts`.
 */
const SPECS = [
  fsReadSpec,
  fsListSpec,
  fsSearchSpec,
  fsWriteSpec,
  fsEditSpec,
  fsDeleteSpec,
  gitStatusSpec,
  gitDiffSpec,
  gitLogSpec,
  gitAddSpec,
  gitCommitSpec,
  gitBranchSpec,
  gitCheckoutSpec,
  shellExecSpec,
  selectActiveIntentSpec,
  setupRunSpec,
] as const;

type NamesOf<Specs extends readonly { name: string }[]> = { [I in keyof Specs]: Specs[I]["name"] };

/** The tool names, in catalogue order (a tuple, so `z.enum` and exhaustive records can use it). */
export const TOOL_NAMES = SPECS.map((spec) => spec.name) as unknown as NamesOf<typeof SPECS>;
export const ToolName = z.enum(TOOL_NAMES);
export type ToolName = z.infer<typeof ToolName>;

type Specs = (typeof SPECS)[number];
/** Each tool's spec by its name, with its exact input and data types. */
export type ToolSpecs = { [Spec in Specs as Spec["name"]]: Spec };
export const TOOL_SPECS = Object.freeze(
  Object.fromEntries(SPECS.map((spec) => [spec.name, spec])),
) as unknown as Readonly<ToolSpecs>;

export function isToolName(name: string): name is ToolName {
  return ToolName.safeParse(name).success;
}

/** The spec of a known tool, or null: an unknown tool has no risk, and the gate refuses it. */
export function toolSpecOf(name: string): ToolSpec | null {
  return isToolName(name) ? (TOOL_SPECS[name] as ToolSpec) : null;
}

export function riskOf(name: string): RiskClass | null {
  return toolSpecOf(name)?.risk ?? null;
}

export function categoryOf(name: string): ToolCategory | null {
  return toolSpecOf(name)?.category ?? null;
}

/** Mutating tools need a selected intent (seed 003). Unknown names count as mutating: fail closed. */
export function isMutatingTool(name: string): boolean {
  const risk = riskOf(name);
  return risk === null || risk !== "safe";
}

/**
 * Tools that cannot change the workspace, the repository or the governance state. `shell.exec` is not
 * one (a command can do anything), nor is `select_active_intent` (it changes which intent owns writes).
 */
export const READ_ONLY_TOOLS: readonly ToolName[] = TOOL_NAMES.filter((name) => TOOL_SPECS[name].readOnly);

export function isReadOnlyTool(name: string): boolean {
  return isToolName(name) && TOOL_SPECS[name].readOnly;
}

/**
 * Tools only the server calls, never offered to a model in any stage: `setup.run` runs the project's
 * setup command, approved by a person in the project's settings, once per new workspace.
 */
export const SERVER_ONLY_TOOLS: readonly ToolName[] = TOOL_NAMES.filter(
  (name) => TOOL_SPECS[name].stages.length === 0,
);

const BY_WIRE_NAME = new Map<string, ToolName>(TOOL_NAMES.map((name) => [TOOL_SPECS[name].wireName, name]));

/** The tool a provider's function name stands for, or null when it names none. */
export function toolNameOfWire(wireName: string): ToolName | null {
  return BY_WIRE_NAME.get(wireName) ?? null;
}
