/**
 * Quoting words for a POSIX shell, for callers that compose command strings for `exec`. Pure
 * (browser-safe). Two behaviours, named for what they do:
 * - `shellQuote` leaves a plain word (`ls`, `src/a.ts`) as it is and single-quotes anything else;
 * - `singleQuote` always single-quotes, for command text that should read the same whatever the word
 *   (the offline model's commands, git pathspecs).
 */
export function shellQuote(word: string): string {
  if (word !== "" && /^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return singleQuote(word);
}

/**
 * POSIX single-quote a string so the shell passes it through as one literal word: nothing inside
 * single quotes is special except the quote itself, which is closed, escaped and reopened.
 */
export function singleQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}
