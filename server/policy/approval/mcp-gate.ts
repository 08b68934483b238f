import type { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import type { McpToolRisk } from "@/server/domain/tools/mcp";
import type { ToolCategory } from "@/server/domain/tools/risk";
import { INTENT_REQUIRED_ERROR } from "@/server/governance/intent-gate";
import { type ApprovalDecision, approve, ask, deny } from "./decision";

/**
 * The approval gate for a project's MCP tool, pure. Its risk is the project's setting for that tool
 * (default `moderate`: a person approves each call): `off` refuses, `safe` runs, anything else needs
 * an intent and asks a person unless the project (or, for a moderate tool, the run) pre-approved the
 * `mcp` category; "ask before every change" asks whatever was pre-approved. The server's own
 * description of a tool never lowers its risk: only the project's setting counts.
 */
export function gateMcpCall(request: {
  tool: string;
  setting: McpToolRisk;
  hasIntent: boolean;
  checkpoints: Pick<CheckpointPolicy, "commands" | "preApproved">;
  preApproved: { run: readonly ToolCategory[]; project: readonly ToolCategory[] };
}): ApprovalDecision {
  const { tool, setting } = request;
  if (setting === "off") return deny(`The project turned the MCP tool ${tool} off.`);
  if (setting === "safe")
    return approve(`The project marked the MCP tool ${tool} safe; it needs no approval.`);
  if (!request.hasIntent) return deny(INTENT_REQUIRED_ERROR);
  const dangerous = setting === "dangerous";
  if (request.checkpoints.commands === "ask-always")
    return ask(`This project asks a person before every change (${tool}).`, dangerous);
  const forProject =
    request.preApproved.project.includes("mcp") ||
    (request.checkpoints.preApproved as readonly string[]).includes("mcp");
  if (forProject)
    return approve(`MCP tools are pre-approved for every run of this project, including ${tool}.`);
  if (!dangerous && request.preApproved.run.includes("mcp"))
    return approve(`MCP tools are pre-approved for this run (${tool}).`);
  return dangerous
    ? ask(`The MCP tool ${tool} is dangerous and needs confirmation.`, true)
    : ask(`The MCP tool ${tool} needs a person's approval.`, false);
}
