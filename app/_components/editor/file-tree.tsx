"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { describeError, useTRPC } from "../../_trpc/client";

/**
 * The workspace as a tree that loads one folder at a time (a folder's entries are fetched when it is
 * first opened). Every row is a button: Tab moves between them, Enter or Space opens a folder or a
 * file, and a folder says whether it is expanded.
 */
interface TreeProps {
  sessionId: string;
  openPath: string | null;
  onOpen(path: string): void;
  /** The folder last clicked (its Rename and Delete act on it), or null. */
  selectedFolder: string | null;
  onSelectFolder(path: string): void;
}

export function FileTree(props: TreeProps) {
  return (
    <nav className="file-tree" aria-label="Workspace files" data-testid="file-tree">
      <Folder {...props} path={null} />
    </nav>
  );
}

function Folder(props: TreeProps & { path: string | null }) {
  const { sessionId, path, openPath, onOpen, selectedFolder, onSelectFolder } = props;
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
              data-selected={entry.path === selectedFolder}
              onClick={() => {
                onSelectFolder(entry.path);
                setExpanded((current) => {
                  const next = new Set(current);
                  if (!next.delete(entry.path)) next.add(entry.path);
                  return next;
                });
              }}
            >
              {expanded.has(entry.path) ? "▾" : "▸"} {entry.name}/
            </button>
            {expanded.has(entry.path) && <Folder {...props} path={entry.path} />}
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
