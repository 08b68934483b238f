"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { describeError, useTRPC } from "../../_trpc/client";
import { type FileChange, filesOfDiff } from "./diff-files";

/** How many lines of one file are drawn before the rest waits behind a click. */
const SHOWN_LINES = 400;

/**
 * The Changes tab: the session's workspace against its base, file by file. Asked only while the tab
 * is open, and again whenever the workspace may have changed (a cycle ran, a person saved a file).
 */
export function ChangesPanel({
  sessionId,
  visible,
  workspaceVersion,
}: {
  sessionId: string;
  visible: boolean;
  workspaceVersion: string;
}) {
  const trpc = useTRPC();
  const diff = useQuery({ ...trpc.work.diff.queryOptions({ sessionId }), enabled: visible });
  const seen = useRef(workspaceVersion);
  const { refetch } = diff;
  useEffect(() => {
    if (seen.current === workspaceVersion || !visible) return;
    seen.current = workspaceVersion;
    void refetch();
  }, [workspaceVersion, visible, refetch]);

  const files = diff.data?.status === "ready" ? filesOfDiff(diff.data.diff) : [];
  return (
    <section className="card" aria-label="Changes" data-testid="changes-panel">
      <div className="row">
        <h2 style={{ margin: 0 }}>Changes</h2>
        {diff.data?.status === "ready" && (
          <span className="muted small" data-testid="changes-summary">
            {files.length === 0
              ? "No changes yet"
              : `${files.length} ${files.length === 1 ? "file" : "files"} changed against ${diff.data.base.slice(0, 8)}`}
          </span>
        )}
        <button
          type="button"
          className="secondary"
          style={{ marginLeft: "auto" }}
          onClick={() => void refetch()}
          disabled={diff.isFetching}
          data-testid="changes-refresh"
        >
          {diff.isFetching ? "Comparing…" : "Refresh"}
        </button>
      </div>
      {diff.isPending && visible && <p className="muted small">Comparing the workspace with its base…</p>}
      {diff.data?.status === "no-sandbox" && (
        <p className="muted small" data-testid="changes-empty">
          This session has no sandbox right now, so there is nothing to compare. Give the agent a task (or
          open the terminal) and its changes appear here.
        </p>
      )}
      {diff.error && (
        <p role="alert" className="error small" data-testid="changes-error">
          {describeError(diff.error)}
        </p>
      )}
      {diff.data?.status === "ready" && diff.data.truncated && (
        <p className="warn small">The diff is larger than 2 MB; only its beginning is shown.</p>
      )}
      <div className="stack" data-testid="changes-files">
        {files.map((file) => (
          <ChangedFile key={file.path} file={file} />
        ))}
      </div>
    </section>
  );
}

const KIND_LABEL: Record<FileChange["kind"], string> = {
  added: "new",
  deleted: "deleted",
  renamed: "renamed",
  modified: "",
  binary: "binary",
};

function ChangedFile({ file }: { file: FileChange }) {
  const shown = file.lines.slice(0, SHOWN_LINES);
  return (
    <details
      className="changes-file"
      open={file.lines.length <= SHOWN_LINES}
      data-testid="changed-file"
      data-path={file.path}
    >
      <summary>
        <code>{file.path}</code>
        {KIND_LABEL[file.kind] && <span className="muted small">{KIND_LABEL[file.kind]}</span>}
        <span className="small changes-count-add">+{file.added}</span>
        <span className="small changes-count-remove">−{file.removed}</span>
      </summary>
      {shown.length > 0 && (
        <pre className="changes-lines">
          {shown.map((line, index) => (
            <span
              // biome-ignore lint/suspicious/noArrayIndexKey: the lines of one diff never reorder.
              key={index}
              className={
                line.startsWith("@@")
                  ? "diff-hunk"
                  : line.startsWith("+")
                    ? "diff-add"
                    : line.startsWith("-")
                      ? "diff-remove"
                      : undefined
              }
            >
              {line || " "}
            </span>
          ))}
        </pre>
      )}
      {file.lines.length > SHOWN_LINES && (
        <p className="muted small">
          {file.lines.length - SHOWN_LINES} more lines: open the file in the Files tab.
        </p>
      )}
    </details>
  );
}
