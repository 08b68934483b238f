import type { EventInput, GateRecord, ToolCallBody } from "@/server/domain/events/schema";
import type { ApprovalView } from "@/server/domain/session/view";
import { canonicalJson } from "@/server/domain/text/canonical-json";

/**
 * Approval requests for any tool that asks, and the person's edit of one. Pure. A shell command keeps
 * its own kind ("command", the text in `command`) so old logs and the command card stay as they were;
 * every other tool's request is kind "tool" and carries the exact call (its binding is the SHA-256 of
 * it) plus a preview: the file before a write, an edit or a delete, or a commit's staged diff.
 */

/** A call whose recorded form would not fit in one event is never shown in part: it is not run. */
export const MAX_APPROVAL_CALL_CHARS = 180_000;

export interface ApprovalRequestInput {
  runId: string;
  intentionId: string;
  approvalId: string;
  thought: string;
  /** The call as the dispatch parsed it (defaults filled in): the binding is over exactly this. */
  call: ToolCallBody;
  binding: string;
  gate: { reason: string; confirm?: boolean };
  preview: string | null;
}

export type ApprovalRequestOutcome = { ok: true; event: EventInput } | { ok: false; reason: string };

export function approvalRequestFor(request: ApprovalRequestInput): ApprovalRequestOutcome {
  const base = {
    type: "approval-requested" as const,
    runId: request.runId,
    approvalId: request.approvalId,
    intentionId: request.intentionId,
    thought: request.thought,
    binding: request.binding,
    confirm: request.gate.confirm === true,
    reason: request.gate.reason,
  };
  const size = canonicalJson(request.call).length + (request.preview?.length ?? 0);
  if (size > MAX_APPROVAL_CALL_CHARS)
    return {
      ok: false,
      reason: `${request.call.tool} is too large to show a person for approval (${size} characters; at most ${MAX_APPROVAL_CALL_CHARS}): split it into smaller changes`,
    };
  if (request.call.tool === "shell.exec") {
    const command = typeof request.call.input.command === "string" ? request.call.input.command : "";
    return { ok: true, event: { ...base, kind: "command", command } };
  }
  return { ok: true, event: { ...base, kind: "tool", call: request.call, preview: request.preview } };
}

/** The call an approval stands for: its tool call, or (kind "command") the shell command. */
export function requestedCall(approval: Pick<ApprovalView, "call" | "command">): ToolCallBody {
  return approval.call ?? { tool: "shell.exec", input: { command: approval.command ?? "" } };
}

/** What the person approved to run: their edit, or the request as it was. */
export function approvedCall(
  approval: Pick<ApprovalView, "call" | "command" | "editedCall" | "editedCommand">,
): { call: ToolCallBody; edited: boolean } {
  if (approval.editedCall) return { call: approval.editedCall, edited: true };
  if (approval.editedCommand !== null)
    return { call: { tool: "shell.exec", input: { command: approval.editedCommand } }, edited: true };
  return { call: requestedCall(approval), edited: false };
}

/**
 * Checks a person's edit of a tool approval before it is recorded: the same tool on the same path
 * (an edit's new content may become a whole-file fs.write of that path), so an edit can change what is
 * written but never where. Returns the edited call, null when nothing changed, or a problem in words.
 * The engine re-gates the edited call through the dispatch (schema, scope, approval gate) before it runs.
 */
export function checkEditedCall(
  approval: Pick<ApprovalView, "kind" | "call">,
  edit: ToolCallBody,
): { ok: true; call: ToolCallBody | null } | { ok: false; problem: string } {
  const original = approval.call;
  if (approval.kind !== "tool" || !original)
    return { ok: false, problem: "Only a tool approval takes an edited call." };
  const sameTool = edit.tool === original.tool;
  const editToWrite = original.tool === "fs.edit" && edit.tool === "fs.write";
  if (!sameTool && !editToWrite)
    return {
      ok: false,
      problem: `The edit must stay a ${original.tool} call (or a whole-file fs.write of an fs.edit).`,
    };
  if ((original.input.path ?? null) !== (edit.input.path ?? null))
    return { ok: false, problem: "The edit cannot change which file the call touches." };
  if (canonicalJson(edit) === canonicalJson(original)) return { ok: true, call: null };
  return { ok: true, call: edit };
}

/**
 * A file's content from fs.read's numbered lines (`%6d\t…`), for the left side of a diff. A read
 * cannot tell whether the last line ended with a line break; it is shown with one.
 */
export function contentFromNumberedRead(output: string): string {
  if (/^\(.* is empty or has no lines from \d+ on\)$/.test(output.trim())) return "";
  const lines = output.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines.map((line) => line.replace(/^\s*\d+\t/, "")).join("\n") + (lines.length > 0 ? "\n" : "");
}

/** The reason recorded for a gate that refused a call before any person saw it. */
export function refusal(gate: GateRecord | null, fallback: string): GateRecord {
  return gate ?? { decision: "deny", reason: fallback };
}
