/**
 * The fake model's own reading of a task, deliberately simple and independent of the offline model's
 * heuristics: the steps a task splits into, and an explicit file step ("create `x` containing `y`",
 * "replace `a` with `b` in `x`").
 */

function restore(text: string, spans: readonly string[]): string {
  let result = text;
  while (/\uE000\d+\uE000/.test(result)) {
    result = result.replace(/\uE000(\d+)\uE000/g, (_, index: string) => spans[Number(index)] ?? "");
  }
  return result;
}

/**
 * A deliberately simple splitter, independent of the offline model's, on ";", newlines, and/then/also.
 * A `{…}` group is kept whole (and unwrapped), so tests can script a nested decomposition:
 * "run `a` and {run `b` and run `c`}" splits into "run `a`" and the compound "run `b` and run `c`".
 */
export function splitSteps(text: string): string[] {
  const spans: string[] = [];
  const masked = text
    .replace(/`[^`\n]*`/g, (span) => `\uE000${spans.push(span) - 1}\uE000`)
    .replace(/\{([^{}]*)\}/g, (_, inner: string) => `\uE000${spans.push(inner.trim()) - 1}\uE000`);
  const steps = masked
    .split(/\s*;\s*|\n+|,?\s+(?:and\s+then|and|then|also)\s+/i)
    .map((step) => restore(step, spans))
    .map((step) => step.trim().replace(/[.\s]+$/, ""))
    .filter((step) => step !== "");
  return steps.length > 5 ? [...steps.slice(0, 4), steps.slice(4).join("; ")] : steps;
}

/** An explicit file step, in the fake's own words (independent of the offline model's heuristics). */
export type FileStep =
  | { kind: "write"; path: string; content: string }
  | { kind: "edit"; path: string; search: string; replace: string };

export function fileStep(text: string): FileStep | undefined {
  const write = /\bcreate\s+`([^`]+)`\s+containing\s+`([^`]*)`/i.exec(text);
  if (write) return { kind: "write", path: write[1] ?? "", content: `${write[2] ?? ""}\n` };
  const edit = /\breplace\s+`([^`]+)`\s+with\s+`([^`]*)`\s+in\s+`([^`]+)`/i.exec(text);
  if (edit) return { kind: "edit", path: edit[3] ?? "", search: edit[1] ?? "", replace: edit[2] ?? "" };
  return undefined;
}
