"use client";

import { useState } from "react";
import { firstLineSummary } from "@/server/domain/text/fit-text";

/** Longer than this, or more lines than SUMMARY_LINES, a node's text is summarised in its head. */
const SUMMARY_CHARS = 300;
const SUMMARY_LINES = 3;

/**
 * A node's "what". A pasted stack trace as a task stays whole in the log; the node shows its first
 * line and how much more there is, and the whole text when the person opens it (rendered only then).
 */
export function NodeWhat({ what }: { what: string }) {
  const [open, setOpen] = useState(false);
  const long = what.length > SUMMARY_CHARS || what.split("\n").length > SUMMARY_LINES;
  if (!long)
    return (
      <span className="node-what" data-testid="intention-what">
        {what}
      </span>
    );
  const { line } = firstLineSummary(what, 160);
  const lines = what.split("\n").length;
  return (
    <span className="node-what" data-testid="intention-what">
      <span data-testid="intention-what-summary">{line}</span>{" "}
      <button
        type="button"
        className="link"
        onClick={() => setOpen(!open)}
        data-testid="intention-what-toggle"
      >
        {open
          ? "hide full text"
          : `… full text (${what.length.toLocaleString("en")} characters, ${lines} lines)`}
      </button>
      {open && (
        <pre className="output" data-testid="intention-what-full">
          {what}
        </pre>
      )}
    </span>
  );
}
