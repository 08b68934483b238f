"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import { useEffect, useRef, useState } from "react";
import { describeError, useTRPC } from "../../_trpc/client";
import type { CodeEditorHandle } from "./code-editor";
import { FileActions } from "./file-actions";
import { languageLabel, languageOf } from "./language";

/** CodeMirror is loaded only when a file is opened: pages without the Files card never fetch it. */
const CodeEditor = dynamic(() => import("./code-editor"), {
  ssr: false,
  loading: () => <p className="muted small">Loading the editor…</p>,
});

interface Opened {
  /** The file as last read or saved, and the hash a save sends back as `baseHash`. */
  text: string;
  hash: string;
}

/**
 * One open file: the editor, its dirty marker, Save (and Ctrl/Cmd-S) and Reload. A save that finds
 * the file changed in the sandbox is refused and offers to reload, keeping the person's text to put
 * back; a protected path asks "save anyway?" and only that confirmation writes it.
 */
export function FileEditor({
  sessionId,
  path,
  canEdit,
  running,
  onSaved,
  onRenamed,
  onDeleted,
}: {
  sessionId: string;
  path: string;
  canEdit: boolean;
  running: boolean;
  onSaved(): void;
  /** The person renamed this file: the card opens it under its new name. */
  onRenamed(to: string): void;
  /** The person deleted this file: the card closes it. */
  onDeleted(): void;
}) {
  const trpc = useTRPC();
  const file = useQuery({
    ...trpc.workspace.read.queryOptions({ sessionId, path }),
    // Read once per opening (Reload reads again); dropped on close, so reopening never shows a stale
    // copy whose hash would make the next save a conflict with the person's own earlier save.
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    refetchOnWindowFocus: false,
    retry: false,
  });
  const save = useMutation(trpc.workspace.save.mutationOptions());
  const handle = useRef<CodeEditorHandle | null>(null);
  const [opened, setOpened] = useState<Opened | null>(null);
  const [docText, setDocText] = useState("");
  const [docKey, setDocKey] = useState(0);
  const [dirty, setDirty] = useState(false);
  const [conflict, setConflict] = useState<string | null>(null);
  const [question, setQuestion] = useState<{ reason: string; binding: string } | null>(null);
  /** The person's text from before a reload, to put back. */
  const [kept, setKept] = useState<string | null>(null);

  // Every successful read (the first, and each Reload) replaces the document.
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed on the fetch time, so a reload of identical content still resets the editor.
  useEffect(() => {
    if (!file.data) return;
    // Whatever the person had typed (also while the read was on its way) is kept to put back.
    const current = handle.current?.text();
    if (opened && current !== undefined && current !== opened.text) setKept(current);
    setOpened({ text: file.data.text, hash: file.data.hash });
    setDocText(file.data.text);
    setDocKey((key) => key + 1);
    setDirty(false);
    setConflict(null);
    setQuestion(null);
  }, [file.dataUpdatedAt]);

  function reload() {
    void file.refetch();
  }

  function putBack() {
    if (kept === null) return;
    setDocText(kept);
    setDocKey((key) => key + 1);
    setDirty(kept !== opened?.text);
    setKept(null);
  }

  async function doSave(confirmBinding: string | null) {
    const content = handle.current?.text();
    if (!opened || content === undefined || !canEdit || save.isPending) return;
    let outcome: Awaited<ReturnType<typeof save.mutateAsync>>;
    try {
      outcome = await save.mutateAsync({ sessionId, path, content, baseHash: opened.hash, confirmBinding });
    } catch {
      return; // save.error is shown under the bar
    }
    if (outcome.status === "conflict") {
      setConflict(outcome.message);
      setQuestion(null);
      return;
    }
    if (outcome.status === "confirm") {
      setQuestion({ reason: outcome.reason, binding: outcome.binding });
      return;
    }
    setOpened({ text: content, hash: outcome.hash });
    setDirty(handle.current?.text() !== content);
    setConflict(null);
    setQuestion(null);
    setKept(null);
    onSaved();
  }

  const language = languageOf(path);
  if (file.error)
    return (
      <div className="file-editor">
        <p role="alert" className="error" data-testid="file-error">
          {describeError(file.error)}
        </p>
      </div>
    );

  return (
    <div
      className="file-editor"
      data-testid="file-editor"
      data-path={path}
      data-dirty={dirty}
      data-loads={docKey}
    >
      <div className="file-editor-bar">
        <span className="path" data-testid="file-path">
          {path}
          {dirty && (
            <span
              className="pill warn"
              data-testid="dirty-marker"
              title="Changed since it was opened or saved"
            >
              ● unsaved
            </span>
          )}
        </span>
        <span className="muted small">{languageLabel(language)}</span>
        {canEdit && (
          <button
            type="button"
            className="primary"
            disabled={!opened || save.isPending}
            onClick={() => void doSave(null)}
            data-testid="file-save"
            title="Save (Ctrl+S or ⌘S)"
          >
            {save.isPending ? "Saving…" : "Save"}
          </button>
        )}
        <button
          type="button"
          className="secondary"
          disabled={file.isFetching}
          onClick={reload}
          data-testid="file-reload"
        >
          {file.isFetching ? "Loading…" : "Reload"}
        </button>
        {canEdit && (
          <FileActions
            sessionId={sessionId}
            path={path}
            hash={opened?.hash ?? null}
            dirty={dirty}
            onRenamed={onRenamed}
            onDeleted={onDeleted}
          />
        )}
      </div>
      {!canEdit && (
        <p className="muted small" data-testid="read-only-note">
          Read-only: viewers can open files but not save them.
        </p>
      )}
      {canEdit && running && (
        <p className="muted small">
          The agent is running. You can still edit: your save is recorded as your contribution, and if the
          agent writes this file first, saving tells you.
        </p>
      )}
      {conflict && (
        <div role="alert" className="error" data-testid="file-conflict">
          <p>{conflict} Your text is still here and was not saved.</p>
          <button type="button" className="secondary" onClick={reload} data-testid="conflict-reload">
            Reload the sandbox's version
          </button>
        </div>
      )}
      {kept !== null && !conflict && (
        <p className="small" data-testid="kept-text">
          Reloaded. Your unsaved text is kept:{" "}
          <button type="button" className="secondary" onClick={putBack} data-testid="put-back">
            Put my text back
          </button>
        </p>
      )}
      {question && (
        <div role="alertdialog" aria-label="Confirm save" className="card warn" data-testid="file-confirm">
          <p>{question.reason} Save anyway?</p>
          <button
            type="button"
            className="primary"
            disabled={save.isPending}
            onClick={() => void doSave(question.binding)}
            data-testid="confirm-save"
          >
            Save anyway
          </button>{" "}
          <button
            type="button"
            className="secondary"
            onClick={() => setQuestion(null)}
            data-testid="cancel-save"
          >
            Cancel
          </button>
        </div>
      )}
      {save.error && (
        <p role="alert" className="error" data-testid="save-error">
          {describeError(save.error)}
        </p>
      )}
      {opened ? (
        <CodeEditor
          key={docKey}
          initialText={docText}
          baseline={opened.text}
          language={language}
          readOnly={!canEdit}
          label={canEdit ? `Edit ${path}` : `${path} (read-only)`}
          onChange={setDirty}
          onSave={() => void doSave(null)}
          handle={handle}
        />
      ) : (
        <p className="muted small">Opening {path}…</p>
      )}
    </div>
  );
}
