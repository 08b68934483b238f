/**
 * How `arbor` ends, one code per outcome so a CI job can tell them apart (the README lists them).
 * VERIFIED is the only success of a run: an answer, a failure, a stop or a question left for a
 * person are each their own non-zero code.
 */
export const EXIT = {
  /** The run ended VERIFIED (or a command other than `run` succeeded). */
  VERIFIED: 0,
  /** Bad input, an unreachable server, or an error the server reported. */
  ERROR: 1,
  /** The run ended ANSWERED: an answer (Chat mode, or a question), never a verification. */
  ANSWERED: 2,
  /** The run ended FAILED. */
  FAILED: 3,
  /** The run ended STOPPED (a person stopped it, or aborted it at an approval). */
  STOPPED: 4,
  /** An approval nobody pre-approved came up with `--ci` or no terminal: the CLI stopped the run. */
  NEEDS_PERSON: 5,
  /** Not logged in, or the server refused the token (unknown, revoked, expired, out of its scope). */
  UNAUTHORIZED: 6,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

const BY_STATUS: Record<string, ExitCode> = {
  VERIFIED: EXIT.VERIFIED,
  ANSWERED: EXIT.ANSWERED,
  FAILED: EXIT.FAILED,
  STOPPED: EXIT.STOPPED,
};

/** A finished run's exit code; a status this CLI does not know is an error, never a success. */
export function exitCodeOf(status: string): ExitCode {
  return BY_STATUS[status] ?? EXIT.ERROR;
}

/** An error that ends the command with a message for the person and a code for the job. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly code: ExitCode = EXIT.ERROR,
  ) {
    super(message);
    this.name = "CliError";
  }
}
