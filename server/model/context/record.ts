import { canonicalJson } from "@/server/domain/text/canonical-json";
import type { ContextItemKind, DropKind } from "@/server/domain/vocabulary/context";
import { sha256Of } from "./text";

export type { CompressionTrigger, ContextItemKind, DropKind } from "@/server/domain/vocabulary/context";

import type { CompressionTrigger } from "@/server/domain/vocabulary/context";

/**
 * What a compression left out of a model request, so the UI can show it and restore it: every item
 * is identified by the SHA-256 of its canonical JSON (or of the text itself), which matches the item
 * stored in the event log.
 */

export interface DroppedItem {
  item: ContextItemKind;
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
  item: ContextItemKind,
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
