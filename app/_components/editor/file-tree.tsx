"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { describeError, useTRPC } from "../../_trpc/client";

/**
 * The workspace as a tree that loads one folder at a time (a folder's entries are fetched when it is
 * first opened). Every row is a button: Tab moves between them, Enter or Space opens a folder or a
 * file, and a folder says whether it is expanded.
 */
export function FileTree({
  sessionId,
  openPath,
  onOpen,
}: {
  sessionId: string;
  openPath: string | null;
  onOpen(path: string): void;
}) {
  return (
    <nav className="file-tree" aria-label="Workspace files" data-testid="file-tree">
      <Folder sessionId={sessionId} path={null} openPath={openPath} onOpen={onOpen} />
    </nav>
  );
}

function Folder({
  sessionId,
  path,
  openPath,
  onOpen,
}: {
  sessionId: string;
  path: string | null;
  openPath: string | null;
  onOpen(path: string): void;
}) {
  const trpc = useTRPC();
  const listing = useQuery(trpc.workspace.list.queryOptions({ sessionId, ...(path ? { path } : {}) }));
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());

  if (listing.error)
    return (
      <p role="alert" className="error small" data-testid="file-tree-error">
        {describeError(listing.error)}
      </p>
    );
  if (!listing.data) return <p className="muted small">Loading…</p>;
  if (listing.data.entries.length === 0) return <p className="muted small">(empty)</p>;

  return (
    <ul>
      {listing.data.entries.map((entry) =>
        entry.kind === "dir" ? (
          <li key={entry.path}>
            <button
              type="button"
              aria-expanded={expanded.has(entry.path)}
              data-testid="tree-folder"
              data-path={entry.path}
              onClick={() =>
                setExpanded((current) => {
                  const next = new Set(current);
                  if (!next.delete(entry.path)) next.add(entry.path);
                  return next;
                })
              }
            >
              {expanded.has(entry.path) ? "▾" : "▸"} {entry.name}/
            </button>
            {expanded.has(entry.path) && (
              <Folder sessionId={sessionId} path={entry.path} openPath={openPath} onOpen={onOpen} />
            )}
          </li>
        ) : (
          <li key={entry.path}>
            <button
              type="button"
              aria-current={entry.path === openPath}
              data-testid="tree-file"
              data-path={entry.path}
              onClick={() => onOpen(entry.path)}
            >
              {entry.name}
            </button>
          </li>
        ),
      )}
      {listing.data.more && (
        <li className="muted small">More entries than shown; use the terminal to see them.</li>
      )}
    </ul>
  );
}
