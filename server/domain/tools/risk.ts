import { z } from "zod";

/**
 * The words a tool's danger is spoken in. Each tool's own class and category are facts of its spec
 * (`server/domain/tools/`); the catalogue answers `riskOf` and `categoryOf` by name.
 *
 * Risk classes follow Roura (seed 004): `safe` runs without a click, `moderate` needs approval,
 * `dangerous` needs approval with an explicit confirmation. A call's declared risk is never trusted on
 * its own: the gate uses the stricter of the catalogue's class and what the call declares.
 */

export const RISK_CLASSES = ["safe", "moderate", "dangerous"] as const;
export const RiskClass = z.enum(RISK_CLASSES);
export type RiskClass = z.infer<typeof RiskClass>;

/** What a user pre-approves for a run or a project ("writes pass without a click"). */
export const TOOL_CATEGORIES = ["read", "write", "git-read", "git-write", "shell", "intent", "mcp"] as const;
export const ToolCategory = z.enum(TOOL_CATEGORIES);
export type ToolCategory = z.infer<typeof ToolCategory>;

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
