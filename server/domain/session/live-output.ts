/**
 * A running command's output as live readers get it; `server/events/command-output.ts` keeps it and
 * says why it is not an event.
 */
export interface LiveCommandOutput {
  runId: string;
  intentionId: string;
  cycleId: string;
  /** The last lines (command-output.ts's MAX_LINES, at most MAX_CHARS), stdout and stderr as they interleaved. */
  text: string;
  /** Everything the command printed so far, in characters (the page says how much it is not showing). */
  totalChars: number;
  done: boolean;
}
