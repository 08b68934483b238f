import type { ToolCallBody } from "@/server/domain/events/bodies/shared";
import type { StoredEvent } from "@/server/domain/events/schema";
import { foldEvents } from "@/server/domain/session/fold";
import { CliError } from "./exit-codes";

/**
 * `arbor approve --edit-content <file>`: a waiting file write approved with the content a person
 * wrote instead, as the browser's card allows (same tool and path; the server gates the edited call
 * again before it runs). Pure: the session's log and the new content come in.
 */
export function editedWriteCall(events: StoredEvent[], approvalId: string, content: string): ToolCallBody {
  const approval = foldEvents(events).approvals[approvalId];
  if (!approval) throw new CliError(`No approval ${approvalId} in this session.`);
  if (approval.status !== "PENDING") throw new CliError(`Approval ${approvalId} is not waiting any more.`);
  const call = approval.call;
  if (call?.tool !== "fs.write")
    throw new CliError(
      `Approval ${approvalId} is not a file write (${call?.tool ?? approval.kind}): --edit-content edits an fs.write's content; use --edit for a command.`,
    );
  return { tool: call.tool, input: { ...call.input, content } };
}
