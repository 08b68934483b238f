/**
 * Finds where quoted strings and substitutions end without interpreting them, so the lexer can cut a
 * substitution's body out and analyse it as a command of its own.
 */

import type { Construct, ShellWord } from "./vocabulary";

/** The line is not one this analysis reads with confidence; the gate must ask. */
export class ShellSyntaxError extends Error {}

/** Index of the `)` closing a `$(`, `<(` or `>(` whose body starts at `start`. */
export function substitutionEnd(s: string, start: number): number {
  let depth = 1;
  let j = start;
  while (j < s.length) {
    const c = s.charAt(j);
    const skipped = pastQuoted(s, j);
    if (skipped !== null) j = skipped;
    else if (c === "#" && (j === start || /[\s;&|(]/.test(s.charAt(j - 1)))) {
      const end = s.indexOf("\n", j);
      j = end < 0 ? s.length : end;
    } else {
      if (c === "(") depth += 1;
      if (c === ")") depth -= 1;
      if (depth === 0) return j;
      j += 1;
    }
  }
  throw new ShellSyntaxError("unbalanced $( … ) or <( … )");
}

/** The index past the escape or the quoted part that starts at `j`, or null when none starts there. */
function pastQuoted(s: string, j: number): number | null {
  const c = s.charAt(j);
  if (c === "\\") return j + 2;
  if (c === "'") return after(s, j, "'");
  if (c === '"') return skipDoubleQuoted(s, j + 1);
  if (c === "`") return after(s, j, "`");
  return null;
}

function skipDoubleQuoted(s: string, start: number): number {
  let j = start;
  while (j < s.length) {
    const c = s.charAt(j);
    if (c === '"') return j + 1;
    if (c === "\\") j += 2;
    else if (c === "`") j = after(s, j, "`");
    else if (c === "$" && s.charAt(j + 1) === "(") j = substitutionEnd(s, j + 2) + 1;
    else j += 1;
  }
  throw new ShellSyntaxError("unbalanced double quote");
}

function after(s: string, open: number, quote: "'" | "`"): number {
  let j = open + 1;
  while (j < s.length && s.charAt(j) !== quote) j += quote !== "'" && s.charAt(j) === "\\" ? 2 : 1;
  if (j >= s.length) throw new ShellSyntaxError(`unbalanced ${quote === "'" ? "single quote" : "backtick"}`);
  return j + 1;
}

export function closingBracket(s: string, start: number, close: "}" | "]"): number {
  const open = close === "}" ? "{" : "[";
  let depth = 1;
  let j = start;
  while (j < s.length) {
    const c = s.charAt(j);
    const skipped = pastQuoted(s, j);
    if (skipped !== null) j = skipped;
    else if (c === "$" && s.charAt(j + 1) === "(") j = substitutionEnd(s, j + 2) + 1;
    else {
      if (c === open) depth += 1;
      if (c === close) depth -= 1;
      if (depth === 0) return j;
      j += 1;
    }
  }
  throw new ShellSyntaxError(`unbalanced $${open} … ${close}`);
}

/** The word being read: its text after quote removal and what is known about it so far. */
export class WordBuilder {
  text = "";
  started = false;
  literal = true;
  quoted = false;
  assignmentName: string | null = null;

  add(chars: string, quoted: boolean): void {
    this.started = true;
    if (quoted) this.quoted = true;
    this.text += chars;
  }

  toWord(): ShellWord {
    const { text, literal, quoted, assignmentName } = this;
    return { text, literal, quoted, assignmentName };
  }
}

/** Index of the `'` closing a `$'…'` string whose content starts at `start`. */
export function ansiCQuoteEnd(s: string, start: number): number {
  let j = start;
  while (j < s.length && s.charAt(j) !== "'") j += s.charAt(j) === "\\" ? 2 : 1;
  if (j >= s.length) throw new ShellSyntaxError("unbalanced $'…' quote");
  return j;
}

/** A backtick substitution's body with its backslash escapes removed, and the closing backtick's index. */
export function backtickBody(s: string, start: number): { body: string; end: number } {
  let j = start;
  let body = "";
  while (j < s.length && s.charAt(j) !== "`") {
    const c = s.charAt(j);
    const next = s.charAt(j + 1);
    const escaped = c === "\\" && (next === "`" || next === "\\" || next === "$");
    body += escaped ? next : c;
    j += escaped ? 2 : 1;
  }
  if (j >= s.length) throw new ShellSyntaxError("unbalanced backtick");
  return { body, end: j };
}

export interface PendingHeredoc {
  delimiter: string;
  /** False when the delimiter was quoted: then `$(…)` in the body is plain text. */
  expands: boolean;
  /** `<<-` strips leading tabs from body lines and the delimiter line. */
  stripTabs: boolean;
}

/** Reads a here-document body starting at `start`; `next` is the index after its delimiter line. */
export function heredocBody(
  s: string,
  start: number,
  heredoc: PendingHeredoc,
): { body: string; next: number } {
  let body = "";
  let i = start;
  for (;;) {
    if (i >= s.length) throw new ShellSyntaxError(`here-document ${heredoc.delimiter} is not terminated`);
    const end = s.indexOf("\n", i);
    const line = s.slice(i, end < 0 ? s.length : end);
    i = end < 0 ? s.length : end + 1;
    if ((heredoc.stripTabs ? line.replace(/^\t+/, "") : line) === heredoc.delimiter) return { body, next: i };
    body += `${line}\n`;
  }
}

// Unicode spaces, zero-width and bidi controls and fullwidth forms: bash treats them as ordinary word
// characters, so `npm test；rm` or a non-breaking space means something other than what a reader sees.
const LOOK_ALIKE = /[\u00A0\u1680\u2000-\u200F\u2028-\u202F\u205F-\u206F\u3000\uFEFF\uFF00-\uFFEF]/u;
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F]/;

export function suspiciousCharacters(s: string): Construct[] {
  const found: Construct[] = [];
  if (LOOK_ALIKE.test(s))
    found.push({ kind: "look-alike-characters", detail: "unicode spaces or fullwidth punctuation" });
  if (CONTROL.test(s))
    found.push({ kind: "control-characters", detail: "control characters other than tab and newline" });
  return found;
}
