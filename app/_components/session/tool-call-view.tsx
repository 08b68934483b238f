"use client";

import type { ToolCallBody } from "@/server/domain/events/schema";
import type { ApprovalView } from "@/server/domain/session/view";
import { applyEdit } from "@/server/domain/text/edit-text";
import { MergeDiff } from "./merge-diff";

/**
 * The body of a tool approval: what the call will do, shown so a person can judge it. A write or an
 * edit is a side-by-side diff whose new content is editable; a delete shows the file that goes; a
 * commit shows the staged diff and an editable message; anything else shows its input.
 */

const str = (value: unknown): string => (typeof value === "string" ? value : "");

/** The file's content after the call, as the person will see (and may edit) it; null when unknown. */
export function contentAfter(call: ToolCallBody, before: string | null): string | null {
  if (call.tool === "fs.write") return str(call.input.content);
  if (call.tool !== "fs.edit" || before === null) return null;
  const edited = applyEdit(
    before,
    { search: str(call.input.search), replace: str(call.input.replace), all: call.input.all === true },
    str(call.input.path),
  );
  return edited.ok ? edited.content : null;
}

export function ToolCallView({
  approval,
  call,
  content,
  message,
  onContent,
  onMessage,
}: {
  approval: ApprovalView;
  call: ToolCallBody;
  /** The new content as proposed (writes and edits); the person's edits arrive through onContent. */
  content: string | null;
  message: string;
  onContent(content: string): void;
  onMessage(message: string): void;
}) {
  const path = str(call.input.path);
  if ((call.tool === "fs.write" || call.tool === "fs.edit") && content !== null) {
    return (
      <>
        <p className="small">
          {approval.preview === null ? "Create" : "Change"} <code data-testid="tool-path">{path}</code>
        </p>
        <MergeDiff before={approval.preview ?? ""} after={content} path={path} onChange={onContent} />
      </>
    );
  }
  if (call.tool === "fs.delete") {
    return (
      <>
        <p className="warn small" data-testid="delete-question">
          Delete <code data-testid="tool-path">{path}</code>? It cannot be undone from here.
        </p>
        {approval.preview !== null && <pre className="output">{approval.preview}</pre>}
      </>
    );
  }
  if (call.tool === "git.commit") {
    return (
      <>
        <label>
          Commit message (edit it before approving if needed)
          <textarea
            className="command-input"
            value={message}
            onChange={(event) => onMessage(event.target.value)}
            rows={3}
            data-testid="commit-message"
          />
        </label>
        <p className="small muted">Staged changes</p>
        <pre className="output" data-testid="staged-diff">
          {approval.preview ?? "(no staged diff)"}
        </pre>
      </>
    );
  }
  return (
    <pre className="output" data-testid="tool-input">
      {call.tool} {JSON.stringify(call.input, null, 2)}
    </pre>
  );
}
