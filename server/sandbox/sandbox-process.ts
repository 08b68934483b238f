import "server-only";
import { randomBytes } from "node:crypto";
import { type Duplex, PassThrough } from "node:stream";
import type DockerModem from "docker-modem";
import type Docker from "dockerode";
import { runInContainer } from "./docker-exec";
import { safeGitEnvLines } from "./safe-git";
import { WORKSPACE_DIR } from "./shell";
import { finishedWhenStreamEnds } from "./stream-end";
import { hangUpArgv } from "./terminal";
import type { SandboxProcess } from "./types";

/**
 * A long-lived program in the session's container with its stdin and stdout kept open: a Docker
 * exec without a TTY (so stdout and stderr stay apart and bytes pass unchanged), started as the
 * sandbox user in /workspace. What an MCP server speaking over stdio needs (server/mcp/): the
 * server code writes JSON-RPC lines to stdin and reads them from stdout.
 *
 * Like the terminal's shell, the program carries a unique tag as its argv[0]'s neighbour so the host
 * can end it and everything it started: Docker has no API to kill an exec, and closing the attach
 * stream does not end the program.
 */

const TAG_PREFIX = "arbor-proc-";

/** `exec -a` renames the program's argv[0] to the tag, so `pgrep -f` finds it and its children. */
function processArgv(tag: string, argv: readonly string[]): string[] {
  return ["bash", "-c", 'tag="$0"; exec -a "$tag" "$@"', tag, ...argv];
}

export async function openContainerProcess(
  container: Docker.Container,
  argv: readonly string[],
  options: { env?: Record<string, string> } = {},
): Promise<SandboxProcess> {
  const tag = `${TAG_PREFIX}${randomBytes(6).toString("hex")}`;
  const exec = await container.exec({
    Cmd: processArgv(tag, argv),
    AttachStdin: true,
    AttachStdout: true,
    AttachStderr: true,
    Tty: false,
    User: "1000:1000",
    WorkingDir: WORKSPACE_DIR,
    Env: [
      ...safeGitEnvLines(),
      ...Object.entries(options.env ?? {}).map(([key, value]) => `${key}=${value}`),
    ],
  });
  const stream = (await exec.start({ hijack: true, stdin: true })) as Duplex;
  return new ContainerProcess(container, exec, stream, tag);
}

class ContainerProcess implements SandboxProcess {
  private readonly stdoutListeners: ((chunk: Buffer) => void)[] = [];
  private readonly stderrListeners: ((chunk: Buffer) => void)[] = [];
  private readonly exitListeners: ((exitCode: number | null) => void)[] = [];
  private done = false;
  private exitCode: number | null = null;
  private closing: Promise<void> | null = null;
  private readonly finished: Promise<void>;

  constructor(
    private readonly container: Docker.Container,
    private readonly exec: Docker.Exec,
    private readonly stream: Duplex,
    private readonly tag: string,
  ) {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    (container.modem as DockerModem).demuxStream(stream, stdout, stderr);
    stdout.on("data", (chunk: Buffer) => {
      for (const listener of this.stdoutListeners) listener(chunk);
    });
    stderr.on("data", (chunk: Buffer) => {
      for (const listener of this.stderrListeners) listener(chunk);
    });
    this.finished = finishedWhenStreamEnds(stream, () => this.finish());
  }

  get exited(): boolean {
    return this.done;
  }

  onStdout(listener: (chunk: Buffer) => void): void {
    this.stdoutListeners.push(listener);
  }

  onStderr(listener: (chunk: Buffer) => void): void {
    this.stderrListeners.push(listener);
  }

  onExit(listener: (exitCode: number | null) => void): void {
    if (this.done) listener(this.exitCode);
    else this.exitListeners.push(listener);
  }

  write(data: string): void {
    if (this.done || this.stream.destroyed || !this.stream.writable) return;
    this.stream.write(Buffer.from(data, "utf8"));
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
    const info = await this.exec.inspect().catch(() => null);
    this.exitCode = info && !info.Running ? (info.ExitCode ?? null) : null;
    for (const listener of this.exitListeners) {
      try {
        listener(this.exitCode);
      } catch {
        // One failing listener must not keep the others from hearing about the exit.
      }
    }
  }
}
