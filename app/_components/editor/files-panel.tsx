"use client";

import "./editor.css";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useTRPC } from "../../_trpc/client";
import { FileEditor } from "./file-editor";
import { FileTree } from "./file-tree";
import { FolderActions } from "./folder-actions";
import { NewFile } from "./new-file";

/** `path` after its folder `from` became `to`; null when it is not inside `from`. */
function movedPath(path: string | null, from: string, to: string | null): string | null {
  if (path === null || !path.startsWith(`${from}/`)) return path;
  return to === null ? null : `${to}${path.slice(from.length)}`;
}

/**
 * The session page's Files card: the workspace tree and an editor. Everything goes through the same
 * tool dispatch as the agent's tools; a person's saves are recorded as their contributions.
 */
export function FilesPanel({
  sessionId,
  canEdit,
  running,
  workspaceVersion,
}: {
  sessionId: string;
  canEdit: boolean;
  running: boolean;
  /** Changes whenever the agent may have changed the workspace (a cycle ran, a run changed state). */
  workspaceVersion: string;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [openPath, setOpenPath] = useState<string | null>(null);
  const [selectedFolder, setSelectedFolder] = useState<string | null>(null);
  const refreshTree = () => queryClient.invalidateQueries({ queryKey: trpc.workspace.list.queryKey() });
  const seenVersion = useRef(workspaceVersion);

  // The tree follows the agent: files it creates appear after its cycle (open files are not touched;
  // a save tells the person when the file changed under them).
  // biome-ignore lint/correctness/useExhaustiveDependencies: refreshTree is rebuilt each render; the version is the trigger.
  useEffect(() => {
    if (seenVersion.current === workspaceVersion) return;
    seenVersion.current = workspaceVersion;
    void refreshTree();
  }, [workspaceVersion]);

  return (
    <section className="card" aria-label="Files" data-testid="files-panel">
      <div className="file-editor-bar">
        <h2>Files</h2>
        {canEdit && (
          <NewFile
            sessionId={sessionId}
            onCreated={(path) => {
              void refreshTree();
              setOpenPath(path);
            }}
          />
        )}
        {canEdit && (
          <NewFile
            sessionId={sessionId}
            folder
            onCreated={(path) => {
              void refreshTree();
              setSelectedFolder(path);
            }}
          />
        )}
        <button
          type="button"
          className="secondary"
          onClick={() => void refreshTree()}
          data-testid="tree-refresh"
        >
          Refresh
        </button>
      </div>
      {canEdit && selectedFolder && (
        <FolderActions
          key={selectedFolder}
          sessionId={sessionId}
          path={selectedFolder}
          onRenamed={(to) => {
            void refreshTree();
            setOpenPath((current) => movedPath(current, selectedFolder, to));
            setSelectedFolder(to);
          }}
          onDeleted={() => {
            void refreshTree();
            setOpenPath((current) => movedPath(current, selectedFolder, null));
            setSelectedFolder(null);
          }}
        />
      )}
      <div className="files-layout">
        <FileTree
          sessionId={sessionId}
          openPath={openPath}
          onOpen={setOpenPath}
          selectedFolder={selectedFolder}
          onSelectFolder={setSelectedFolder}
        />
        {openPath ? (
          <FileEditor
            key={openPath}
            sessionId={sessionId}
            path={openPath}
            canEdit={canEdit}
            running={running}
            onSaved={() => void refreshTree()}
            onRenamed={(to) => {
              void refreshTree();
              setOpenPath(to);
            }}
            onDeleted={() => {
              void refreshTree();
              setOpenPath(null);
            }}
          />
        ) : (
          <p className="muted small">Choose a file in the tree to open it.</p>
        )}
      </div>
    </section>
  );
}
