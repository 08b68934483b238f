import { singleQuote } from "./shell-quote";

/** A command that prints `text` and a newline without interpreting backslashes or `%` (unlike echo). */
export function printLine(text: string): string {
  return `printf '%s\\n' ${singleQuote(text)}`;
}
