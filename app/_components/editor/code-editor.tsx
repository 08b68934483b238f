"use client";

import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import {
  bracketMatching,
  HighlightStyle,
  indentOnInput,
  type LanguageSupport,
  syntaxHighlighting,
} from "@codemirror/language";
import { highlightSelectionMatches, searchKeymap } from "@codemirror/search";
import { Compartment, EditorState } from "@codemirror/state";
import {
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
} from "@codemirror/view";
import { tags } from "@lezer/highlight";
import { useEffect, useRef } from "react";
import { type Language, lineSeparatorOf } from "./language";

/**
 * The CodeMirror 6 editor of the Files card. Only this module (and the language packages it loads
 * on demand) pulls CodeMirror in, and the card imports it dynamically, so pages without the card do
 * not carry it. Colours are CSS variables (editor.css), so it follows the app's light or dark theme
 * without being rebuilt.
 */

export interface CodeEditorHandle {
  /** The text as it will be saved (with the file's own line separator). */
  text(): string;
}

/** Syntax colours by CSS variable: editor.css gives them light and dark values. */
const highlight = HighlightStyle.define([
  {
    tag: [tags.keyword, tags.controlKeyword, tags.moduleKeyword, tags.operatorKeyword],
    color: "var(--cm-keyword)",
  },
  { tag: [tags.string, tags.special(tags.string), tags.regexp], color: "var(--cm-string)" },
  { tag: [tags.number, tags.bool, tags.null, tags.atom], color: "var(--cm-number)" },
  {
    tag: [tags.comment, tags.lineComment, tags.blockComment],
    color: "var(--cm-comment)",
    fontStyle: "italic",
  },
  { tag: [tags.function(tags.variableName), tags.function(tags.propertyName)], color: "var(--cm-function)" },
  { tag: [tags.typeName, tags.className, tags.namespace], color: "var(--cm-type)" },
  { tag: [tags.propertyName, tags.attributeName], color: "var(--cm-property)" },
  { tag: [tags.tagName, tags.heading], color: "var(--cm-tag)", fontWeight: "600" },
  { tag: [tags.link, tags.url], color: "var(--cm-string)", textDecoration: "underline" },
  { tag: tags.emphasis, fontStyle: "italic" },
  { tag: tags.strong, fontWeight: "700" },
  { tag: tags.invalid, color: "var(--danger)" },
]);

const theme = EditorView.theme({
  "&": { backgroundColor: "var(--code-bg)", color: "var(--text)", height: "100%" },
  ".cm-content": { caretColor: "var(--text)", fontFamily: "ui-monospace, SFMono-Regular, Menlo, monospace" },
  ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--text)" },
  ".cm-gutters": {
    backgroundColor: "var(--panel)",
    color: "var(--muted)",
    borderRight: "1px solid var(--border)",
  },
  ".cm-activeLine": { backgroundColor: "var(--cm-active-line)" },
  ".cm-activeLineGutter": { backgroundColor: "var(--cm-active-line)" },
  "&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection": {
    backgroundColor: "var(--cm-selection)",
  },
});

async function loadLanguage(language: Language): Promise<LanguageSupport> {
  switch (language) {
    case "javascript":
    case "jsx":
    case "typescript":
    case "tsx": {
      const { javascript } = await import("@codemirror/lang-javascript");
      return javascript({ jsx: language.endsWith("x"), typescript: language.startsWith("t") });
    }
    case "python":
      return (await import("@codemirror/lang-python")).python();
    case "markdown":
      return (await import("@codemirror/lang-markdown")).markdown();
    case "json":
      return (await import("@codemirror/lang-json")).json();
    case "css":
      return (await import("@codemirror/lang-css")).css();
    case "html":
      return (await import("@codemirror/lang-html")).html();
  }
}

export default function CodeEditor({
  initialText,
  baseline,
  language,
  readOnly,
  label,
  onChange,
  onSave,
  handle,
}: {
  /** The document when mounted; remount (a new `key`) to load another. */
  initialText: string;
  /** The text as last opened or saved: what "dirty" compares with. */
  baseline: string;
  language: Language | null;
  readOnly: boolean;
  /** The editor's accessible name, e.g. "Edit src/app.ts". */
  label: string;
  /** After each change: whether the text differs from `baseline`. */
  onChange(dirty: boolean): void;
  /** Ctrl/Cmd-S. */
  onSave(): void;
  handle: { current: CodeEditorHandle | null };
}) {
  const host = useRef<HTMLDivElement>(null);
  const callbacks = useRef({ onChange, onSave, baseline });
  callbacks.current = { onChange, onSave, baseline };

  // biome-ignore lint/correctness/useExhaustiveDependencies: the editor is built once per mount (the parent keys it by document); callbacks are read through a ref.
  useEffect(() => {
    if (!host.current) return;
    const languageSlot = new Compartment();
    const view = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: initialText,
        extensions: [
          EditorState.lineSeparator.of(lineSeparatorOf(initialText)),
          lineNumbers(),
          highlightActiveLineGutter(),
          history(),
          drawSelection(),
          indentOnInput(),
          bracketMatching(),
          highlightActiveLine(),
          highlightSelectionMatches(),
          syntaxHighlighting(highlight),
          theme,
          languageSlot.of([]),
          EditorState.readOnly.of(readOnly),
          EditorView.editable.of(!readOnly),
          EditorView.contentAttributes.of({ "aria-label": label, "data-testid": "editor-content" }),
          keymap.of([
            {
              key: "Mod-s",
              preventDefault: true,
              run: () => {
                callbacks.current.onSave();
                return true;
              },
            },
            ...defaultKeymap,
            ...historyKeymap,
            ...searchKeymap,
            indentWithTab,
          ]),
          EditorView.updateListener.of((update) => {
            if (!update.docChanged) return;
            const { baseline } = callbacks.current;
            const doc = update.state.doc;
            // The separator-joined text is what gets saved, so that is what is compared.
            callbacks.current.onChange(doc.length !== baseline.length || doc.toString() !== baseline);
          }),
        ],
      }),
    });
    handle.current = { text: () => view.state.doc.toString() };
    let cancelled = false;
    if (language)
      loadLanguage(language).then(
        (support) => {
          if (!cancelled) view.dispatch({ effects: languageSlot.reconfigure(support) });
        },
        () => undefined, // Without its language package the file is still editable as plain text.
      );
    return () => {
      cancelled = true;
      handle.current = null;
      view.destroy();
    };
  }, []);

  return (
    <div ref={host} className="code-editor" data-testid="code-editor" data-language={language ?? "text"} />
  );
}
