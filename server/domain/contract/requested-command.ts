/**
 * An intention that is itself a command ("run `make`", or just "`make`"): its check is that exact
 * command exiting 0 (evidence "ran as requested"). Strict on purpose: "fix `sum.js`" names a file,
 * not a command to run, and gets no such check.
 */
// A trailing remark in parentheses ("run `pwd` (qa-fail)") does not change what is asked.
const RUN_COMMAND =
  /^\s*(?:please\s+)?(?:run|execute)\s+(?:the\s+command\s+)?`([^`\n]+)`\s*(?:\([^()]*\))?\s*[.!]?\s*$/i;
const BARE_COMMAND = /^\s*`([^`\n]+)`\s*(?:\([^()]*\))?\s*[.!]?\s*$/;

export function requestedCommand(what: string): string | null {
  const command = (RUN_COMMAND.exec(what) ?? BARE_COMMAND.exec(what))?.[1]?.trim();
  return command ? command : null;
}
