import { z } from "zod";

/**
 * Names people give things (projects, teams, intents, their own name) and titles Arbor derives from
 * what they typed (session titles) are shown to other people, in lists, page titles and terminals.
 * One rule for all of them: printable text only. Refused, each by name:
 * - broken UTF-16 (a lone surrogate: SQLite, git and JSON each handle it differently — it once left a
 *   half-created project behind);
 * - control characters (NUL, ESC that starts an ANSI escape, DEL, C1 controls, line/paragraph separators);
 * - bidirectional controls (U+202E RIGHT-TO-LEFT OVERRIDE and friends, which make one name look like
 *   another) and other invisible format characters, except the zero-width (non-)joiners that emoji
 *   and several scripts need.
 */
const UNPRINTABLE = /[\p{Cc}\p{Cs}\p{Zl}\p{Zp}\p{Co}\p{Cn}]|(?![\u200C\u200D])\p{Cf}/u;
const UNPRINTABLE_GLOBAL = new RegExp(UNPRINTABLE.source, "gu");

function codePointLabel(character: string): string {
  const code = character.codePointAt(0) ?? 0;
  return `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** Why `text` is not printable (naming the first offending character and where it is), or null. */
export function unprintableProblem(text: string): string | null {
  const match = UNPRINTABLE.exec(text);
  if (!match) return null;
  const character = match[0];
  const code = character.codePointAt(0) ?? 0;
  const kind =
    code >= 0xd800 && code <= 0xdfff
      ? "a broken Unicode character (a lone surrogate)"
      : /\p{Cf}/u.test(character)
        ? "an invisible formatting character (such as a right-to-left override)"
        : /\p{Cc}|\p{Zl}|\p{Zp}/u.test(character)
          ? "a control character"
          : "a character that is not printable";
  return `${kind}, ${codePointLabel(character)}, at position ${[...text.slice(0, match.index)].length + 1}`;
}

/** A trimmed, printable, non-empty name of at most `max` characters (code points, not UTF-16 units). */
export function displayName(options: { what: string; empty: string; max: number }) {
  return z
    .string()
    .trim()
    .min(1, options.empty)
    .superRefine((name, context) => {
      const problem = unprintableProblem(name);
      if (problem) {
        context.addIssue({ code: "custom", message: `The ${options.what} cannot contain ${problem}.` });
        return;
      }
      if ([...name].length > options.max) {
        context.addIssue({
          code: "custom",
          message: `The ${options.what} has at most ${options.max} characters.`,
        });
      }
    });
}

/**
 * A title made from free text (a session's first task): unprintable characters become spaces, runs of
 * white space one space, and the cut falls between code points, so a title is always printable.
 */
export function titleFrom(text: string, max = 120): string {
  const printable = text.replace(UNPRINTABLE_GLOBAL, " ").replace(/\s+/gu, " ").trim();
  const codePoints = [...printable];
  const title =
    codePoints.length > max
      ? `${codePoints
          .slice(0, max - 1)
          .join("")
          .trimEnd()}…`
      : printable;
  return title || "Untitled session";
}
