/**
 * Running one command in a session's sandbox, as the layers below the sandbox adapter see it: the
 * options, the result, and the one method they need (`SandboxExec`). `server/sandbox/types.ts`'s
 * `Sandbox` has this `exec`; policy, governance and contract code take a `SandboxExec` so they depend
 * on this port, not on the Docker adapter.
 */

export type OutputStream = "stdout" | "stderr";

export interface ExecOptions {
  /** Kill the command after this long (default: the provider's default, 120 s). */
  timeoutMs?: number;
  /** Working directory; relative paths resolve against /workspace (the default). */
  cwd?: string;
  /** Extra environment variables for this command only. */
  env?: Record<string, string>;
  /** Text fed to the command's stdin (closed after it). Without it, stdin is empty. */
  stdin?: string;
  /** Every chunk as it arrives, decoded as UTF-8; receives all output, even past the cap. */
  onOutput?: (stream: OutputStream, chunk: string) => void;
  /** Cap on the captured bytes of EACH stream; head and tail are kept around a truncation marker. */
  maxOutputBytes?: number;
  /**
   * Aborting kills the command's whole process group at once (like the time limit, without the grace
   * period) and the result comes back with `aborted: true`: how a person's Stop cuts a running command.
   */
  signal?: AbortSignal;
}

export interface ExecResult {
  /** The command's exit code; after a timeout it is 124 (TERM) or 137 (KILL), as `timeout` reports. */
  exitCode: number;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** True when either stream went over `maxOutputBytes` and was cut. */
  truncated: boolean;
  durationMs: number;
  /** True when the kernel's OOM killer ended the command (exit 137 at the memory limit). */
  oomKilled?: boolean;
  /** True when the caller's signal aborted the command and it was killed for that. */
  aborted?: boolean;
  /** Why the command was killed, when it was: its time limit, the sandbox's memory limit, or an abort. */
  killedReason?: "timeout" | "oom" | "aborted";
}

/** The part of a sandbox that runs a command. */
export interface SandboxExec {
  exec(command: string, options?: ExecOptions): Promise<ExecResult>;
}
