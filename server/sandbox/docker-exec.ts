import "server-only";
import type DockerModem from "docker-modem";
import type Docker from "dockerode";
import type { OutputStream } from "@/server/domain/sandbox-port";
import { DEFAULT_MAX_OUTPUT_BYTES } from "./output";
import { OutputSink } from "./output-sink";

export interface RunOptions {
  stdin?: string;
  env?: Record<string, string>;
  onOutput?: (stream: OutputStream, chunk: string) => void;
  maxOutputBytes?: number;
  /** The host stops waiting after this long (the in-container `timeout` should have acted first). */
  deadlineMs: number;
  /** Called once when the deadline passes, to kill what is still running inside. */
  onDeadline?: () => void;
  /** Aborting stops the wait: `onAbort` kills what runs inside, and the host gives up shortly after. */
  signal?: AbortSignal;
  /** Called once when `signal` aborts, to kill the command's process group inside the container. */
  onAbort?: () => void;
}

export interface RunResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  truncated: boolean;
  deadlineHit: boolean;
  /** True when the caller's signal aborted the command. */
  aborted?: boolean;
}

/** Exit code reported when the host gave up waiting and the engine had none yet. */
const GAVE_UP_EXIT_CODE = 124;
/** Exit code of a command killed because its caller aborted (what SIGKILL gives: 128 + 9). */
export const ABORTED_EXIT_CODE = 137;
/** After an abort, how long the host waits for the killed command's stream to end before it lets go. */
export const ABORT_GRACE_MS = 1_000;

/**
 * Runs argv in the container with the Engine API's exec (no shell on the host), streaming and capping
 * stdout/stderr, and returns the exit code from `exec.inspect()`. Docker errors are thrown as they are.
 */
export async function runInContainer(
  container: Docker.Container,
  argv: string[],
  options: RunOptions,
): Promise<RunResult> {
  const withStdin = options.stdin !== undefined;
  const exec = await container.exec({
    Cmd: argv,
    AttachStdin: withStdin,
    AttachStdout: true,
    AttachStderr: true,
    Tty: false,
    Env: options.env ? Object.entries(options.env).map(([key, value]) => `${key}=${value}`) : undefined,
  });
  // Hijacking (a raw upgraded socket) is only needed to write stdin; a plain response stream is cheaper.
  const stream = await exec.start({ hijack: withStdin, stdin: withStdin });

  const max = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const sinks = {
    stdout: new OutputSink("stdout", max, options.onOutput),
    stderr: new OutputSink("stderr", max, options.onOutput),
  };
  (container.modem as DockerModem).demuxStream(stream, sinks.stdout.writable(), sinks.stderr.writable());

  let deadlineAt = Date.now() + options.deadlineMs;
  let deadlineHit = false;
  let aborted = false;
  const giveUp = () => {
    if (deadlineHit) return;
    deadlineHit = true;
    options.onDeadline?.();
  };
  let abortTimer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      giveUp();
      stream.destroy();
      resolve();
    }, options.deadlineMs);
    const finish = () => {
      clearTimeout(timer);
      clearTimeout(abortTimer);
      resolve();
    };
    onAbort = () => {
      if (aborted) return;
      aborted = true;
      options.onAbort?.();
      // The kill ends the stream; if it does not within the grace, stop waiting anyway.
      deadlineAt = Math.min(deadlineAt, Date.now() + ABORT_GRACE_MS);
      abortTimer = setTimeout(() => {
        clearTimeout(timer);
        stream.destroy();
        resolve();
      }, ABORT_GRACE_MS);
    };
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener("abort", onAbort, { once: true });
    stream.once("end", finish);
    stream.once("close", finish);
    stream.once("error", (error) => {
      clearTimeout(timer);
      clearTimeout(abortTimer);
      if (deadlineHit || aborted) resolve();
      else reject(error);
    });
    if (withStdin) stream.end(Buffer.from(options.stdin ?? "", "utf8"));
  });
  if (onAbort) options.signal?.removeEventListener("abort", onAbort);

  let exitCode = GAVE_UP_EXIT_CODE;
  // The stream can end a moment before the engine records the exit code, or long before it when the
  // command closed its stdout/stderr and kept running; so poll (backing off) until the deadline.
  for (let wait = 10; ; wait = Math.min(wait * 2, 200)) {
    const info = await exec.inspect();
    if (!info.Running && info.ExitCode !== null) {
      exitCode = info.ExitCode;
      break;
    }
    if (deadlineHit || Date.now() >= deadlineAt) {
      if (aborted) exitCode = ABORTED_EXIT_CODE;
      else giveUp();
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, wait));
  }

  return {
    ...(aborted ? { aborted: true } : {}),
    exitCode,
    stdout: sinks.stdout.finish(),
    stderr: sinks.stderr.finish(),
    truncated: sinks.stdout.capture.truncated || sinks.stderr.capture.truncated,
    deadlineHit,
  };
}
