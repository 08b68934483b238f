/**
 * Issue #15.7: what a running command printed before the server died. Live output is ephemeral
 * (server/events/command-output.ts): a crash loses it with the process. So the engine also keeps the
 * tail of each running command's output, and a heartbeat, somewhere a `kill -9` does not erase (the
 * server's data directory, see server/orchestrator/output-so-far-files.ts). When the server comes back,
 * the card that asks whether a cut-off command runs again shows how long it ran and what it printed.
 * Capped: the last lines only, as the live view shows.
 */

/** Lines and characters kept of a running command's output (the card shows them all). */
export const SO_FAR_MAX_LINES = 60;
export const SO_FAR_MAX_CHARS = 4_000;

export interface OutputSoFar {
  /** When the command started (ms since the epoch). */
  startedAt: number;
  /** The last moment the server saw it still running (its output or the heartbeat), ms since the epoch. */
  seenAt: number;
  /** The last lines it printed (at most SO_FAR_MAX_LINES lines, SO_FAR_MAX_CHARS characters). */
  text: string;
  /** Everything it printed, in characters (more than `text` when the start was cut). */
  totalChars: number;
}

/** Where the engine keeps it; absent from the deps: nothing is kept, and the card says so. */
export interface OutputSoFarStore {
  /** The cycle's command starts now. */
  start(cycleId: string): void;
  append(cycleId: string, chunk: string): void;
  /** Its result is in the log: what was kept is dropped. */
  finish(cycleId: string): void;
  /** What was kept of a command cut off by a crash (null: nothing). */
  read(cycleId: string): Promise<OutputSoFar | null>;
  /** Drops what was kept once the recovery is recorded. */
  forget(cycleId: string): Promise<void>;
}

/** What the card says about one cut-off command: how long it ran and what it printed (capped). */
export interface Interruption {
  /** How long it ran, in ms (null: not known). */
  ranMs: number | null;
  /** "ended": it was still running when the server came back and was ended then; "at-least": it ran at least this long. */
  ranKind: "ended" | "at-least" | null;
  /** The last lines it printed before the crash (null: nothing was kept). */
  output: string | null;
  /** Everything it printed, in characters, as far as the server saw. */
  outputChars: number;
}

export function interruptionOf(
  leftovers: { ended: number; ranMs: number | null } | null,
  soFar: OutputSoFar | null,
): Interruption {
  const still = leftovers && leftovers.ended > 0 && leftovers.ranMs !== null ? leftovers.ranMs : null;
  const seen = soFar ? Math.max(0, soFar.seenAt - soFar.startedAt) : null;
  return {
    ranMs: still ?? seen,
    ranKind: still !== null ? "ended" : seen !== null ? "at-least" : null,
    output: soFar ? soFar.text : null,
    outputChars: soFar?.totalChars ?? 0,
  };
}

export function describeRan(interruption: Interruption): string {
  if (interruption.ranMs === null) return "how long it ran is not known";
  const seconds = `${(interruption.ranMs / 1000).toFixed(1)} s`;
  return interruption.ranKind === "ended"
    ? `it ran for ${seconds} (it was still running when the server came back, and was ended)`
    : `it ran for at least ${seconds} before the server stopped`;
}

/** The output part of the interrupted cycle's result and of the card's text. */
export function describeOutput(interruption: Interruption): string {
  if (interruption.output === null) return "What it printed before the restart was not kept.";
  if (interruption.outputChars === 0) return "It printed nothing before the restart.";
  const shown = interruption.output.length;
  const head =
    shown < interruption.outputChars
      ? `Its last ${shown} of ${interruption.outputChars} characters printed before the restart:`
      : "What it printed before the restart:";
  return `${head}\n${interruption.output}`;
}
