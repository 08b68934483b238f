import { z } from "zod";
import { isToolName, TOOL_NAMES, ToolName } from "@/server/domain/vocabulary/stages";

/**
 * How dangerous each tool is and which category a pre-approval names. The tool vocabulary itself is
 * defined once, next to the stage policy that offers tools to the model; it is re-exported here so the
 * approval gate and the stage table cannot disagree about which tools exist.
 *
 * Risk classes follow Roura (seed 004): `safe` runs without a click, `moderate` needs approval,
 * `dangerous` needs approval with an explicit confirmation. The tool's own label is never trusted on
 * its own: the gate uses the stricter of this table and what the tool declares.
 */

export { isToolName, TOOL_NAMES, ToolName };

export const RISK_CLASSES = ["safe", "moderate", "dangerous"] as const;
export const RiskClass = z.enum(RISK_CLASSES);
export type RiskClass = z.infer<typeof RiskClass>;

/** What a user pre-approves for a run or a project ("writes pass without a click"). */
export const TOOL_CATEGORIES = ["read", "write", "git-read", "git-write", "shell", "intent"] as const;
export const ToolCategory = z.enum(TOOL_CATEGORIES);
export type ToolCategory = z.infer<typeof ToolCategory>;

export interface ToolProfile {
  category: ToolCategory;
  risk: RiskClass;
}

export const TOOL_PROFILES = {
  "fs.read": { category: "read", risk: "safe" },
  "fs.list": { category: "read", risk: "safe" },
  "fs.search": { category: "read", risk: "safe" },
  "fs.write": { category: "write", risk: "moderate" },
  "fs.edit": { category: "write", risk: "moderate" },
  "fs.delete": { category: "write", risk: "dangerous" },
  "git.status": { category: "git-read", risk: "safe" },
  "git.diff": { category: "git-read", risk: "safe" },
  "git.log": { category: "git-read", risk: "safe" },
  "git.add": { category: "git-write", risk: "moderate" },
  "git.commit": { category: "git-write", risk: "moderate" },
  "git.branch": { category: "git-write", risk: "moderate" },
  // Checkout can throw away uncommitted work in one call, so it ranks with delete.
  "git.checkout": { category: "git-write", risk: "dangerous" },
  "shell.exec": { category: "shell", risk: "dangerous" },
  // Choosing an intent changes only which scope later writes may touch; the writes are gated themselves.
  select_active_intent: { category: "intent", risk: "safe" },
  // The project's setup command: only ever run with a person's approval bound to its text.
  "setup.run": { category: "shell", risk: "dangerous" },
} as const satisfies Record<ToolName, ToolProfile>;

/** The profile of a known tool, or null: an unknown tool has no risk, and the gate refuses it. */
export function toolProfile(name: string): ToolProfile | null {
  return isToolName(name) ? TOOL_PROFILES[name] : null;
}

export function riskOf(name: string): RiskClass | null {
  return toolProfile(name)?.risk ?? null;
}

export function categoryOf(name: string): ToolCategory | null {
  return toolProfile(name)?.category ?? null;
}

/** Mutating tools need a selected intent (seed 003). Unknown names count as mutating: fail closed. */
export function isMutatingTool(name: string): boolean {
  const risk = riskOf(name);
  return risk === null || risk !== "safe";
}

export function requiresApproval(risk: RiskClass): boolean {
  return risk !== "safe";
}

export function requiresConfirmation(risk: RiskClass): boolean {
  return risk === "dangerous";
}

const RISK_ORDER: Record<RiskClass, number> = { safe: 0, moderate: 1, dangerous: 2 };

export function stricterRisk(a: RiskClass, b: RiskClass): RiskClass {
  return RISK_ORDER[a] >= RISK_ORDER[b] ? a : b;
}
