import { randomBytes } from "node:crypto";
import type Docker from "dockerode";
import type { Logger } from "pino";
import { runInContainer } from "./docker-exec";
import { buildExecArgv, buildKillArgv, KILL_AFTER_MS, resolveWorkspacePath } from "./shell";
import {
  type ExecOptions,
  type ExecResult,
  type Sandbox,
  type SandboxError,
  SandboxFileError,
} from "./types";

/** How long the host waits past `timeout`'s own KILL before it stops waiting on the stream. */
const HOST_GRACE_MS = 3_000;
/** readFile refuses files larger than this: they are not text an agent should hold in memory. */
const MAX_READ_BYTES = 16 * 1024 * 1024;
/** Deadline for the short helper commands behind readFile/writeFile. */
const FILE_OP_DEADLINE_MS = 30_000;

export interface DockerSandboxDeps {
  container: Docker.Container;
  sessionId: string;
  containerName: string;
  defaultTimeoutMs: number;
  log: Logger;
  wrap: (error: unknown, action: string) => SandboxError;
}

export class DockerSandbox implements Sandbox {
  readonly id: string;
  readonly sessionId: string;
  readonly containerName: string;

  constructor(private readonly deps: DockerSandboxDeps) {
    this.id = deps.container.id;
    this.sessionId = deps.sessionId;
    this.containerName = deps.containerName;
  }

  async exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    const timeoutMs = options.timeoutMs ?? this.deps.defaultTimeoutMs;
    // A unique tag in the command line lets the host find and kill the process group if it must.
    const tag = `arbor-exec-${randomBytes(6).toString("hex")}`;
    const argv = buildExecArgv({ command, cwd: resolveWorkspacePath(options.cwd ?? "."), timeoutMs, tag });
    const started = performance.now();
    let result: Awaited<ReturnType<typeof runInContainer>>;
    try {
      result = await runInContainer(this.deps.container, argv, {
        stdin: options.stdin,
        env: options.env,
        onOutput: options.onOutput,
        maxOutputBytes: options.maxOutputBytes,
        deadlineMs: timeoutMs + KILL_AFTER_MS + HOST_GRACE_MS,
        onDeadline: () => void this.kill(tag),
      });
    } catch (error) {
      throw this.deps.wrap(error, "run the command in the sandbox");
    }
    const durationMs = Math.round(performance.now() - started);
    // 124 = `timeout` sent TERM, 137 = it had to KILL. A command may exit 124 by itself, hence the clock.
    const killedByTimeout = (result.exitCode === 124 || result.exitCode === 137) && durationMs >= timeoutMs;
    const timedOut = result.deadlineHit || killedByTimeout;
    this.deps.log.debug(
      {
        sessionId: this.sessionId,
        exitCode: result.exitCode,
        timedOut,
        durationMs,
        command: command.slice(0, 200),
      },
      "sandbox exec",
    );
    return {
      exitCode: result.exitCode,
      stdout: result.stdout,
      stderr: result.stderr,
      timedOut,
      truncated: result.truncated,
      durationMs,
    };
  }

  async readFile(filePath: string): Promise<string> {
    const target = resolveWorkspacePath(filePath);
    const result = await this.run(["cat", "--", target], { maxOutputBytes: MAX_READ_BYTES }, "read a file");
    if (result.exitCode !== 0) {
      throw new SandboxFileError(target, `Cannot read ${target}: ${cleanError(result.stderr)}`);
    }
    if (result.truncated) {
      throw new SandboxFileError(target, `Cannot read ${target}: larger than ${MAX_READ_BYTES} bytes.`);
    }
    return result.stdout;
  }

  async writeFile(filePath: string, content: string): Promise<void> {
    const target = resolveWorkspacePath(filePath);
    // The content travels on stdin, so quotes, `$`, newlines and size need no escaping.
    const script = 'mkdir -p -- "$(dirname -- "$1")" && cat > "$1"';
    const result = await this.run(
      ["bash", "-c", script, "arbor-write", target],
      { stdin: content },
      "write a file",
    );
    if (result.exitCode !== 0) {
      throw new SandboxFileError(target, `Cannot write ${target}: ${cleanError(result.stderr)}`);
    }
  }

  async dispose(): Promise<void> {
    try {
      await this.deps.container.remove({ force: true, v: true });
      this.deps.log.info({ sessionId: this.sessionId, container: this.containerName }, "sandbox disposed");
    } catch (error) {
      const status = (error as { statusCode?: unknown })?.statusCode;
      // 404: already gone; 409: removal already in progress. Both mean the goal is reached.
      if (status === 404 || status === 409) return;
      throw this.deps.wrap(error, "remove the sandbox");
    }
  }

  private async run(argv: string[], options: { stdin?: string; maxOutputBytes?: number }, action: string) {
    try {
      return await runInContainer(this.deps.container, argv, { ...options, deadlineMs: FILE_OP_DEADLINE_MS });
    } catch (error) {
      throw this.deps.wrap(error, action);
    }
  }

  private async kill(tag: string): Promise<void> {
    try {
      await runInContainer(this.deps.container, buildKillArgv(tag), { deadlineMs: 10_000 });
    } catch (error) {
      this.deps.log.warn(
        { sessionId: this.sessionId, err: String(error) },
        "could not kill a timed-out command",
      );
    }
  }
}

/** "cat: /x: No such file or directory" → "No such file or directory". */
function cleanError(stderr: string): string {
  const line = stderr.trim().split("\n").at(-1) ?? "";
  return line.split(": ").at(-1) || "unknown error";
}
