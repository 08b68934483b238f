"use client";

import { useMemo } from "react";
import { parsePatch, type WorkspaceChange } from "./files-at";

/** The session's files at this point of the replay, as their diff against where the session started. */
export function FilesPanel({ change }: { change: WorkspaceChange | null }) {
  const files = useMemo(() => (change ? parsePatch(change.patch) : []), [change]);
  return (
    <section className="card" aria-label="Files at this point" data-testid="replay-files">
      <h2>Files at this point</h2>
      {!change ? (
        <p className="muted" data-testid="replay-files-none">
          No file had changed yet.
        </p>
      ) : (
        <>
          <p className="muted small">
            Changed since the session started (from <code>{change.base.slice(0, 10)}</code>):
          </p>
          <ul className="list" data-testid="replay-changed-files">
            {change.files.map((file) => (
              <li key={file.path} data-testid="replay-changed-file">
                <code>{file.path}</code>{" "}
                {file.added === null ? (
                  <span className="muted small">binary</span>
                ) : (
                  <span className="small">
                    <span className="diff-add">+{file.added}</span>{" "}
                    <span className="diff-remove">−{file.removed}</span>
                  </span>
                )}
              </li>
            ))}
          </ul>
          {change.truncated && (
            <p className="muted small">
              Some diffs were too large to keep in the log; the list above is complete.
            </p>
          )}
          {files.map((file) => (
            <details key={file.path} className="file-diff" data-testid="replay-file-diff">
              <summary>
                <code>{file.path}</code>
              </summary>
              <pre className="output diff">
                {file.lines.map((line, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: lines of one fixed patch, never reordered.
                  <span key={index} className={`diff-${line.kind}`}>
                    {line.text}
                    {"\n"}
                  </span>
                ))}
              </pre>
            </details>
          ))}
        </>
      )}
    </section>
  );
}
