import { canonicalJson, sha256Of } from "./text";

/**
 * What a compression left out of a model request, so the UI can show it and restore it: every item
 * is identified by the SHA-256 of its canonical JSON (or of the text itself), which matches the item
 * stored in the event log.
 */

export const COMPRESSION_TRIGGERS = ["message_count", "token_estimate", "history_cap"] as const;
export type CompressionTrigger = (typeof COMPRESSION_TRIGGERS)[number];

export const DROP_KINDS = ["omitted", "shortened", "collapsed", "reasoning_stripped"] as const;
export type DropKind = (typeof DROP_KINDS)[number];

export interface DroppedItem {
  /** What the item was: "attempt", "finished_subtree", "repo_context", "message", … */
  item: string;
  /** The item's own id, when it has one. */
  id?: string;
  how: DropKind;
  sha256: string;
  /** Size of the original, so the UI can say how much was left out. */
  chars: number;
  /** What a person reads in the UI, e.g. "attempt 3: fs.edit src/a.ts → FAILURE". */
  label?: string;
}

export interface CompressionRecord {
  triggers: CompressionTrigger[];
  dropped: DroppedItem[];
  /** Characters of the result actually sent. */
  keptChars: number;
}

export function droppedItem(
  item: string,
  how: DropKind,
  original: unknown,
  id?: string,
  label?: string,
): DroppedItem {
  const chars = typeof original === "string" ? original.length : canonicalJson(original).length;
  return {
    item,
    ...(id === undefined ? {} : { id }),
    how,
    sha256: sha256Of(original),
    chars,
    ...(label === undefined ? {} : { label }),
  };
}
