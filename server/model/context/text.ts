import { createHash } from "node:crypto";

/** Small text helpers shared by the context builder and the history compressor. */

export function estimateTokens(text: string): number {
  // Four characters per token is the usual rule of thumb for English and code; the same rule the
  // offline model records, so estimates and budgets agree across the app.
  return Math.ceil(text.length / 4);
}

/** Whitespace collapsed to single spaces, so one item is one line. */
export function flatten(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** At most `max` characters, ending with "…" when cut. */
export function capText(text: string, max: number): string {
  if (text.length <= max) return text;
  return max <= 0 ? "" : `${text.slice(0, max - 1)}…`;
}

/**
 * Keeps the head and the tail of a long text: a command's output says what ran at the top and why it
 * failed at the bottom, and both matter more than the middle.
 */
export function squeeze(text: string, max: number): string {
  const flat = flatten(text);
  if (flat.length <= max) return flat;
  if (max < 20) return capText(flat, max);
  const marker = " … ";
  const head = Math.floor((max - marker.length) * 0.4);
  const tail = max - marker.length - head;
  return `${flat.slice(0, head)}${marker}${flat.slice(flat.length - tail)}`;
}

/** JSON with object keys sorted at every level, so equal values always hash equally. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

export function sha256Of(value: unknown): string {
  return createHash("sha256")
    .update(typeof value === "string" ? value : canonicalJson(value))
    .digest("hex");
}
