import type { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import { splitShellCommand } from "@/server/domain/shell/split";
import type { ActiveIntent } from "@/server/governance/intent-gate";
import { decideApproval } from "@/server/policy/approval/decide";
import type { ApprovalDecision } from "@/server/policy/approval/decision";

/**
 * The checkpoint before an action's command runs. The intention being worked is the active intent
 * (its scope is the whole workspace: a command's effects have no path to check); the project's
 * checkpoint policy supplies the allow and deny lists; "never ask" is seed 004's batch pre-approval of
 * the shell category. The approval gate itself stays the judge, so a denied program, a command
 * substitution or an unparseable line is never waved through by any setting.
 */
export function gateCommand(
  command: string,
  /** The active intent, or the id of the intention being worked (its scope is the whole workspace). */
  intent: string | ActiveIntent,
  policy: CheckpointPolicy,
): ApprovalDecision {
  const decided = decideApproval({
    tool: "shell.exec",
    input: { command },
    risk: "dangerous",
    activeIntent: typeof intent === "string" ? { id: intent, ownedScope: ["**"] } : intent,
    policy: { allowCommands: policy.allowCommands, denyCommands: policy.denyCommands },
    preApprovals: { run: [], project: policy.commands === "never-ask" ? ["shell"] : [] },
  });
  if (decided.decision === "approve" && policy.commands === "ask-always") {
    return { decision: "ask", reason: "This project asks a person before every command.", confirm: true };
  }
  // The allow-list names programs that read; one that writes a file through a redirection still asks.
  if (decided.decision === "approve" && policy.commands === "ask-unlisted") {
    const written = writtenFiles(command);
    if (written.length > 0)
      return { decision: "ask", reason: `The command writes to ${written.join(", ")}.`, confirm: false };
  }
  return decided;
}

function writtenFiles(command: string): string[] {
  const split = splitShellCommand(command);
  if (!split.ok) return [];
  return split.parts.flatMap((part) =>
    part.redirections
      .filter((redirection) => redirection.kind === "write" && redirection.target.text !== "/dev/null")
      .map((redirection) => redirection.target.text),
  );
}
