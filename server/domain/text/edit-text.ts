/**
 * fs.edit's search/replace, pure: the search text must occur exactly once (or `all` must be set), so
 * an edit never lands somewhere the model did not mean. Errors say what to do next.
 */
export type EditOutcome =
  | { ok: true; content: string; replacements: number; firstLine: number }
  | { ok: false; code: "search_not_found" | "search_ambiguous"; message: string };

export function applyEdit(
  content: string,
  edit: { search: string; replace: string; all: boolean },
  fileName: string,
): EditOutcome {
  const positions = occurrences(content, edit.search);
  if (positions.length === 0) {
    const hint = content.includes(edit.search.trim())
      ? " It does occur with different leading or trailing whitespace; copy it exactly from fs.read."
      : " Read the file with fs.read and copy the text exactly, including whitespace.";
    return {
      ok: false,
      code: "search_not_found",
      message: `The search text does not occur in ${fileName}.${hint}`,
    };
  }
  if (positions.length > 1 && !edit.all) {
    const lines = positions.slice(0, 5).map((at) => lineOf(content, at));
    return {
      ok: false,
      code: "search_ambiguous",
      message: `The search text occurs ${positions.length} times in ${fileName} (lines ${lines.join(", ")}${positions.length > 5 ? ", …" : ""}). Include more surrounding lines so it is unique, or set all to replace every occurrence.`,
    };
  }
  const first = positions[0] ?? 0;
  const replaced = edit.all
    ? content.split(edit.search).join(edit.replace)
    : content.slice(0, first) + edit.replace + content.slice(first + edit.search.length);
  return {
    ok: true,
    content: replaced,
    replacements: edit.all ? positions.length : 1,
    firstLine: lineOf(content, first),
  };
}

/** Non-overlapping occurrences, left to right (what `split` replaces). */
function occurrences(content: string, search: string): number[] {
  const found: number[] = [];
  let from = 0;
  for (;;) {
    const at = content.indexOf(search, from);
    if (at === -1) return found;
    found.push(at);
    from = at + search.length;
  }
}

function lineOf(content: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (content.charCodeAt(i) === 10) line++;
  return line;
}
