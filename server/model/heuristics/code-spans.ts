/**
 * Backticked spans in a step. A span is taken as a command only when the wording says so: it follows
 * "run", "execute", "with"…, it is the whole step, it is a fenced block, or it has arguments. So
 * "fix the bug in `src/app.ts`" names a file, not a command to run.
 */

const CODE_SPAN = /```(?:[a-z]+\n)?([\s\S]*?)```|`([^`\n]+)`/i;
const COMMAND_CUE =
  /\b(?:run|running|execute|exec|invoke|type|call|with|using|via)\s+(?:the\s+)?(?:command\s+)?$/i;

/** The first backticked span's content, e.g. "npm test" for "run `npm test`". */
export function firstCodeSpan(text: string): string | undefined {
  const match = CODE_SPAN.exec(text);
  const code = (match?.[1] ?? match?.[2])?.trim();
  return code === "" ? undefined : code;
}

/** The command the step explicitly asks to run, if its first backticked span is one. */
export function explicitCommand(text: string): string | undefined {
  const match = CODE_SPAN.exec(text);
  if (!match) return undefined;
  const fenced = match[1] !== undefined;
  const code = (match[1] ?? match[2] ?? "").trim();
  if (code === "") return undefined;
  const isWholeStep = text.trim().replace(/[.!]+$/, "") === match[0];
  const cued = COMMAND_CUE.test(text.slice(0, match.index));
  return fenced || isWholeStep || cued || /\s/.test(code) ? code : undefined;
}
