"use client";

import { MergeView } from "@codemirror/merge";
import { EditorState } from "@codemirror/state";
import { EditorView, lineNumbers } from "@codemirror/view";
import { useEffect, useRef } from "react";

/**
 * A side-by-side diff (CodeMirror's merge view): the file before on the left, read-only; the new
 * content on the right, which the person may edit before approving. `onChange` gets every edit.
 */
export function MergeDiff({
  before,
  after,
  path,
  onChange,
}: {
  before: string;
  after: string;
  path: string;
  onChange(content: string): void;
}) {
  const host = useRef<HTMLDivElement>(null);
  const changed = useRef(onChange);
  changed.current = onChange;

  useEffect(() => {
    const parent = host.current;
    if (!parent) return;
    const view = new MergeView({
      a: {
        doc: before,
        extensions: [
          lineNumbers(),
          EditorState.readOnly.of(true),
          EditorView.editable.of(false),
          EditorView.contentAttributes.of({ "aria-label": `${path} before`, "data-testid": "diff-before" }),
        ],
      },
      b: {
        doc: after,
        extensions: [
          lineNumbers(),
          EditorView.lineWrapping,
          EditorView.contentAttributes.of({
            "aria-label": `${path} after (editable)`,
            "data-testid": "diff-after",
          }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) changed.current(update.state.doc.toString());
          }),
        ],
      },
      parent,
      collapseUnchanged: { margin: 3, minSize: 6 },
    });
    return () => view.destroy();
    // The editors are built once per request; the person's edits live in the right-hand editor.
  }, [before, after, path]);

  return (
    <div className="merge-diff" data-testid="merge-diff">
      <div className="merge-diff-heads small muted">
        <span>Before{before === "" ? " (new file)" : ""}</span>
        <span>After (edit it before approving if needed)</span>
      </div>
      <div ref={host} />
    </div>
  );
}
