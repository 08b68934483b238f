/**
 * POSIX single-quote a string so the shell passes it through as one literal word: nothing inside
 * single quotes is special except the quote itself, which is closed, escaped and reopened.
 */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** A command that prints `text` and a newline without interpreting backslashes or `%` (unlike echo). */
export function printLine(text: string): string {
  return `printf '%s\\n' ${shellQuote(text)}`;
}
