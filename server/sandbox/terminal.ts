import "server-only";
import { randomBytes } from "node:crypto";
import type { Duplex } from "node:stream";
import type Docker from "dockerode";
import { runInContainer } from "./docker-exec";
import { safeGitEnvLines } from "./safe-git";
import { WORKSPACE_DIR } from "./shell";
import { finishedWhenStreamEnds } from "./stream-end";
import type { SandboxTerminal, TerminalSize } from "./types";

/**
 * A person's interactive shell in the session's container: a Docker exec with a TTY running bash in
 * /workspace as the sandbox user. This is the human's own channel; it does not pass the agent's
 * approval gate (the tRPC layer only lets members of the project's team reach it).
 *
 * The home directory is writable by the agent's commands, so the shell reads no start-up file from it:
 * not a login shell (no ~/.profile, ~/.bash_profile, ~/.bash_logout), its rc file the image's
 * /etc/bash.bashrc (read-only root) instead of ~/.bashrc, and readline's key bindings from
 * /etc/inputrc instead of ~/.inputrc (a binding can type a command). A line the agent planted in any
 * of them never runs when a person opens the terminal.
 */

/** The rc and readline files the terminal reads: the image's, on the read-only root filesystem. */
export const TERMINAL_RCFILE = "/etc/bash.bashrc";
export const TERMINAL_INPUTRC = "/etc/inputrc";

const TAG_PREFIX = "arbor-term-";

export const MIN_COLS = 2;
export const MAX_COLS = 500;
export const MIN_ROWS = 1;
export const MAX_ROWS = 200;

export function clampSize(size: TerminalSize): TerminalSize {
  const clamp = (value: number, min: number, max: number) =>
    Math.min(max, Math.max(min, Math.floor(Number.isFinite(value) ? value : min)));
  return { cols: clamp(size.cols, MIN_COLS, MAX_COLS), rows: clamp(size.rows, MIN_ROWS, MAX_ROWS) };
}

/**
 * `exec -a` gives the shell a unique argv[0], so the host can find and hang it up with `pgrep -f`
 * later: Docker has no API to kill an exec, and closing the attach socket does not end the shell.
 */
export function terminalArgv(tag: string): string[] {
  return ["bash", "-c", `exec -a "$0" bash --noprofile --rcfile ${TERMINAL_RCFILE} -i`, tag];
}

/** HUP every process carrying the tag (bash passes the HUP on to its jobs), then KILL what is left. */
export function hangUpArgv(tag: string): string[] {
  // The bracket keeps the pattern from matching this script's own command line.
  const pattern = `[${tag.slice(0, 1)}]${tag.slice(1)}`;
  const script = [
    'pids=$(pgrep -f -- "$1")',
    '[ -z "$pids" ] && exit 0',
    "kill -HUP $pids 2>/dev/null",
    'for _ in 1 2 3 4 5 6 7 8 9 10; do sleep 0.05; pgrep -f -- "$1" >/dev/null || exit 0; done',
    'for p in $(pgrep -f -- "$1"); do kill -KILL -- "-$p" "$p" 2>/dev/null; done',
    "exit 0",
  ].join("; ");
  return ["bash", "-c", script, "arbor-hangup", pattern];
}

export async function openContainerTerminal(
  container: Docker.Container,
  initialSize: TerminalSize,
  /** Over the container's own (the proxy this process runs, after a takeover). */
  env: Record<string, string> = {},
): Promise<SandboxTerminal> {
  // A shell outlives the server process that opened it (the engine keeps the TTY); one terminal per
  // session means any shell still there is a leftover from a server that stopped: hang it up first.
  await runInContainer(container, hangUpArgv(TAG_PREFIX), { deadlineMs: 10_000 });
  const tag = `${TAG_PREFIX}${randomBytes(6).toString("hex")}`;
  const exec = await container.exec({
    Cmd: terminalArgv(tag),
    AttachStdin: true,
    AttachStdout: true,
    AttachStderr: true,
    Tty: true,
    User: "1000:1000",
    WorkingDir: WORKSPACE_DIR,
    Env: [
      ...Object.entries(env).map(([key, value]) => `${key}=${value}`),
      "TERM=xterm-256color",
      "COLORTERM=truecolor",
      `INPUTRC=${TERMINAL_INPUTRC}`,
      ...safeGitEnvLines(),
    ],
  });
  // With a TTY the stream is raw (not multiplexed); hijacking is what lets us write stdin.
  const stream = (await exec.start({ hijack: true, stdin: true, Tty: true })) as Duplex;
  const terminal = new ContainerTerminal(container, exec, stream, tag);
  await terminal.resize(initialSize);
  return terminal;
}

class ContainerTerminal implements SandboxTerminal {
  readonly id: string;
  private readonly dataListeners: ((chunk: Buffer) => void)[] = [];
  private readonly exitListeners: ((exitCode: number | null) => void)[] = [];
  private done = false;
  /** Output that came before anyone listened (the first prompt may arrive during the first resize). */
  private early: Buffer[] | null = [];
  private exitCode: number | null = null;
  private exitReported = false;
  private closing: Promise<void> | null = null;
  private readonly finished: Promise<void>;

  constructor(
    private readonly container: Docker.Container,
    private readonly exec: Docker.Exec,
    private readonly stream: Duplex,
    private readonly tag: string,
  ) {
    this.id = exec.id;
    stream.on("data", (chunk: Buffer) => {
      if (this.early) this.early.push(chunk);
      else for (const listener of this.dataListeners) listener(chunk);
    });
    this.finished = finishedWhenStreamEnds(stream, () => this.finish());
  }

  get exited(): boolean {
    return this.done;
  }

  onData(listener: (chunk: Buffer) => void): void {
    this.dataListeners.push(listener);
    const early = this.early;
    this.early = null;
    for (const chunk of early ?? []) listener(chunk);
  }

  onExit(listener: (exitCode: number | null) => void): void {
    this.exitListeners.push(listener);
    if (this.exited && this.exitReported) listener(this.exitCode);
  }

  write(data: string): void {
    if (this.done || this.stream.destroyed || !this.stream.writable) return;
    this.stream.write(Buffer.from(data, "utf8"));
  }

  async resize(size: TerminalSize): Promise<void> {
    const { cols, rows } = clampSize(size);
    // Right after start the engine may not have the process yet (it answers 500/409): try again briefly.
    for (let attempt = 0; ; attempt++) {
      try {
        await this.exec.resize({ h: rows, w: cols });
        return;
      } catch (error) {
        if (this.done || attempt >= 10) throw error;
        await new Promise((resolve) => setTimeout(resolve, 20 * (attempt + 1)));
      }
    }
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      if (!this.done) {
        await runInContainer(this.container, hangUpArgv(this.tag), { deadlineMs: 10_000 }).catch(
          () => undefined,
        );
      }
      this.stream.destroy();
      await this.finished;
    })();
    return this.closing;
  }

  private async finish(): Promise<void> {
    if (this.done) return;
    this.done = true;
    let exitCode: number | null = null;
    // The stream can end a moment before the engine records the exit code.
    for (let attempt = 0; attempt < 10; attempt++) {
      const info = await this.exec.inspect().catch(() => null);
      if (!info) break;
      if (!info.Running) {
        exitCode = info.ExitCode ?? null;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 20 * (attempt + 1)));
    }
    this.exitCode = exitCode;
    this.exitReported = true;
    for (const listener of this.exitListeners) {
      try {
        listener(exitCode);
      } catch {
        // One failing listener must not keep the others from hearing about the exit.
      }
    }
  }
}
