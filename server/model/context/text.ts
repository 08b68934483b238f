import { createHash } from "node:crypto";
import { canonicalJson } from "@/server/domain/text/canonical-json";
import { capEnd } from "@/server/domain/text/cap";

/** Small text helpers shared by the context builder and the history compressor (the general ones are in `server/domain/text/`). */

/** Whitespace collapsed to single spaces, so one item is one line. */
export function flatten(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * Keeps the head and the tail of a long text: a command's output says what ran at the top and why it
 * failed at the bottom, and both matter more than the middle.
 */
export function squeeze(text: string, max: number): string {
  const flat = flatten(text);
  if (flat.length <= max) return flat;
  if (max < 20) return capEnd(flat, max);
  const marker = " … ";
  const head = Math.floor((max - marker.length) * 0.4);
  const tail = max - marker.length - head;
  return `${flat.slice(0, head)}${marker}${flat.slice(flat.length - tail)}`;
}

export function sha256Of(value: unknown): string {
  return createHash("sha256")
    .update(typeof value === "string" ? value : canonicalJson(value))
    .digest("hex");
}
