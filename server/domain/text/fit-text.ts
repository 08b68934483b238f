/**
 * Long user text (a pasted stack trace, a log) is kept in full where it is stored as given — the run's
 * task, the root intention — and summarised wherever a field has a cap: the head is kept, and a
 * marker says how much was left out and where the whole is. Never an error: a capped field is a view.
 */

/** The longest task a person can give, in characters (about 100 KB of ASCII). */
export const MAX_TASK_CHARS = 100_000;

export const MAX_TASK_MESSAGE =
  "A task has at most 100,000 characters (about 100 KB); attach a longer log as a file.";

/** A child step's `what` and `acceptance`, as proposed by a model or edited by a person. */
export const MAX_STEP_CHARS = 2_000;

/**
 * `text` unchanged when it fits in `cap` characters; otherwise its head and a marker naming how many
 * characters were left out, exactly `cap` characters or fewer. `where` says where the full text is.
 */
export function fitText(
  text: string,
  cap: number,
  where = "the full text is kept in the run's task",
): string {
  if (text.length <= cap) return text;
  const marker = (left: number) => `\n… [${left.toLocaleString("en")} more characters left out; ${where}]`;
  // The marker's length depends on the number it shows; one widening pass settles it.
  let head = cap - marker(text.length).length;
  head = cap - marker(text.length - Math.max(0, head)).length;
  if (head <= 0) return text.slice(0, cap);
  return `${text.slice(0, head)}${marker(text.length - head)}`;
}

/** A one-line summary of a long text for a node's title: its first non-blank line, capped. */
export function firstLineSummary(text: string, cap = 200): { line: string; more: number } {
  const lines = text.split("\n");
  const first = lines.find((line) => line.trim() !== "")?.trim() ?? "";
  const line = first.length > cap ? `${first.slice(0, cap - 1)}…` : first;
  return { line, more: text.length - line.length };
}
