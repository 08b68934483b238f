/**
 * Shortening text to a length, one function per behaviour (the names say which part is kept and what
 * marks the cut). Pure; imports nothing.
 */

/** At most `max` characters: the start, ending with "…" when cut. */
export function capEnd(text: string, max: number): string {
  if (text.length <= max) return text;
  return max <= 0 ? "" : `${text.slice(0, max - 1)}…`;
}

/** Whitespace collapsed to single spaces and trimmed, then `capEnd`: one line for a label or a log. */
export function capLine(text: string, max: number): string {
  return capEnd(text.replace(/\s+/g, " ").trim(), max);
}

/**
 * The first `max` characters and a marker that says how many were cut, for text the model reads (it
 * should know that more exists). The marker comes on top of `max`.
 */
export function capEndCounted(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/** At most `max` characters plus a leading "…": the end of a long output, where the error usually is. */
export function keepTail(text: string, max: number): string {
  return text.length <= max ? text : `…${text.slice(-max)}`;
}

/**
 * At most `max` characters, keeping the start (what ran) and the end (where the error usually is),
 * with a marker that says how much was left out.
 */
export function keepHeadAndTail(text: string, max: number): string {
  if (text.length <= max) return text;
  const marker = (omitted: number) => `\n…[${omitted} characters omitted]…\n`;
  // The marker's own length depends on the count it reports; size it for the worst case.
  const room = Math.max(0, max - marker(text.length).length);
  const head = Math.ceil(room / 2);
  const tail = room - head;
  const kept = text.slice(0, head) + marker(text.length - room) + (tail > 0 ? text.slice(-tail) : "");
  return kept.length <= max ? kept : text.slice(0, max);
}
