import type { ApprovedScope } from "@/server/domain/policy/approval-policy";
import type { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import type { ToolCategory } from "@/server/domain/tools/risk";
import type { ActiveIntent } from "@/server/governance/intent-gate";
import type { SecretFinding } from "@/server/governance/secrets";
import { gateCommand } from "@/server/policy/approval/command-gate";
import { type ApprovalDecision, decideApproval } from "@/server/policy/approval/decide";
import { ask, deny } from "@/server/policy/approval/decision";
import { gateMcpCall } from "@/server/policy/approval/mcp-gate";
import { historyRewriteReason } from "./history-guard";
import type { ToolDefinition } from "./types";

/**
 * What a project and a run have decided in advance, as the dispatch's approval stage reads it: the
 * project's checkpoint policy (allow/deny lists, how often commands ask), scopes approved with a
 * decomposition and categories pre-approved for this run or every run of the project.
 */
export interface GatePolicy {
  checkpoints: CheckpointPolicy;
  approvedScopes?: ApprovedScope[];
  approveWhenCheckUnknown?: boolean;
  preApproved?: {
    run?: ToolCategory[];
    project?: ToolCategory[];
    /** Who granted each of the run's categories (run-pre-approvals.ts), named in the gate's reason. */
    runGrantedBy?: Partial<Record<ToolCategory, string>>;
  };
}

/**
 * The approval stage of the dispatch, pure: shell commands go through the command gate (with the
 * history guard first), every other tool through the approval gate's decision over its risk class,
 * paths (and the real paths behind them), secrets, policy and pre-approvals. "Ask before every
 * command" turns any approval of a non-safe call into a question.
 */
export function gateToolCall(request: {
  tool: ToolDefinition;
  input: unknown;
  activeIntent: ActiveIntent | null;
  policy: GatePolicy;
  realPaths: readonly string[];
  secretFindings: readonly SecretFinding[];
}): ApprovalDecision {
  const { tool, input, activeIntent, policy } = request;
  if (tool.mcp)
    return gateMcpCall({
      tool: tool.name,
      setting: tool.mcp.setting,
      hasIntent: activeIntent !== null,
      checkpoints: policy.checkpoints,
      preApproved: { run: policy.preApproved?.run ?? [], project: policy.preApproved?.project ?? [] },
    });
  if (tool.name === "shell.exec") {
    const command = (input as { command: string }).command;
    const rewrite = historyRewriteReason(command);
    if (rewrite) return deny(`No tool may force-push or rewrite git history: ${rewrite}.`);
    if (!activeIntent)
      return decideApproval({
        tool: tool.name,
        input,
        risk: tool.risk,
        activeIntent,
        policy: {},
        preApprovals: {},
      });
    return gateCommand(command, activeIntent, policy.checkpoints);
  }
  const decided = decideApproval({
    tool: tool.name,
    input,
    risk: tool.risk,
    activeIntent,
    policy: {
      allowCommands: policy.checkpoints.allowCommands,
      denyCommands: policy.checkpoints.denyCommands,
      approvedScopes: policy.approvedScopes ?? [],
      approveWhenCheckUnknown: policy.approveWhenCheckUnknown ?? false,
    },
    // The project's own pre-approvals are part of its checkpoint policy (the Checkpoints card).
    preApprovals: {
      run: policy.preApproved?.run ?? [],
      project: [...(policy.preApproved?.project ?? []), ...policy.checkpoints.preApproved],
      runGrantedBy: policy.preApproved?.runGrantedBy ?? {},
    },
    secretFindings: request.secretFindings,
    realPaths: request.realPaths,
  });
  if (decided.decision === "approve" && tool.risk !== "safe" && policy.checkpoints.commands === "ask-always")
    return ask(`This project asks a person before every change (${tool.name}).`, tool.risk === "dangerous");
  return decided;
}
