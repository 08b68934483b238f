/** Quotes one word for a POSIX shell, for callers that compose command strings for `exec`. Pure (browser-safe). */
export function shellQuote(word: string): string {
  if (word !== "" && /^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
