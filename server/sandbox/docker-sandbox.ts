import "server-only";
import { randomBytes } from "node:crypto";
import type Docker from "dockerode";
import type { Logger } from "pino";
import type { ToolchainVersion } from "@/server/domain/events/bodies/sandbox";
import type { ExecOptions, ExecResult } from "@/server/domain/sandbox-port";
import type { SandboxRuntime } from "@/server/domain/vocabulary/sandbox-runtime";
import type { SandboxLimits } from "./container-spec";
import { ABORTED_EXIT_CODE, type RunOptions, type RunResult, runInContainer } from "./docker-exec";
import { SAFE_GIT_ENV } from "./safe-git";
import {
  buildEndLeftoversArgv,
  buildExecArgv,
  buildKillArgv,
  KILL_AFTER_MS,
  parseEndedLeftovers,
  resolveContainerPath,
} from "./shell";
import { AgentUnavailableError, type DirectCommand, type ShellAgent } from "./shell-agent";
import { probeToolchains } from "./toolchains";
import { type Sandbox, type SandboxError, SandboxFileError } from "./types";

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
  image?: string;
  runtime?: SandboxRuntime;
  defaultTimeoutMs: number;
  log: Logger;
  wrap: (error: unknown, action: string) => SandboxError;
  /** The container's persistent shell, when one can be had; null means "use plain docker exec". */
  agent?: () => Promise<ShellAgent | null>;
  /** Per-container memory of the cgroup's OOM-kill counter, for the slow path's OOM detection. */
  oomState?: { count: number };
  /** Called first thing in dispose(), e.g. to close the persistent shell. */
  onDispose?: () => void;
  /** The container's CPU, memory and pids limits, as created (or inspected). */
  limits?: SandboxLimits;
  /** Environment every command gets first (the proxy this process runs, after a takeover). */
  processEnv?: () => Record<string, string>;
}

/** Reads the cgroup's OOM-kill counter (v2 memory.events, v1 memory.oom_control); -1 when unknown. */
const OOM_COUNT_SCRIPT =
  "cat /sys/fs/cgroup/memory.events /sys/fs/cgroup/memory/memory.oom_control 2>/dev/null | awk '$1==\"oom_kill\"{print $2; exit}'";

export class DockerSandbox implements Sandbox {
  readonly id: string;
  readonly sessionId: string;
  readonly containerName: string;
  readonly limits?: SandboxLimits;
  readonly image?: string;
  readonly runtime?: SandboxRuntime;

  constructor(private readonly deps: DockerSandboxDeps) {
    this.id = deps.container.id;
    this.sessionId = deps.sessionId;
    this.containerName = deps.containerName;
    if (deps.limits) this.limits = deps.limits;
    this.image = deps.image;
    this.runtime = deps.runtime;
  }

  toolchains(): Promise<ToolchainVersion[]> {
    return probeToolchains(this);
  }

  async exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    const timeoutMs = options.timeoutMs ?? this.deps.defaultTimeoutMs;
    // A unique tag in the command line lets the host find and kill the process group if it must.
    const tag = `arbor-exec-${randomBytes(6).toString("hex")}`;
    const cwd = resolveContainerPath(options.cwd ?? ".");
    const argv = buildExecArgv({ command, cwd, timeoutMs, tag });
    const started = performance.now();
    if (options.signal?.aborted) return abortedBeforeStart();
    let result: RunResult & { oomKilled?: boolean };
    try {
      result = await this.runArgv(argv, {
        stdin: options.stdin,
        // Also in the container's own env; repeated here for containers created before it was.
        env: { ...this.deps.processEnv?.(), ...options.env, ...SAFE_GIT_ENV },
        onOutput: options.onOutput,
        maxOutputBytes: options.maxOutputBytes,
        deadlineMs: timeoutMs + KILL_AFTER_MS + HOST_GRACE_MS,
        onDeadline: () => void this.kill(tag),
        signal: options.signal,
        onAbort: () => void this.kill(tag),
        direct: { command, cwd, tag, timeoutMs, killAfterMs: KILL_AFTER_MS },
      });
    } catch (error) {
      throw this.deps.wrap(error, "run the command in the sandbox");
    }
    const durationMs = Math.round(performance.now() - started);
    if (result.aborted) return abortedResult(result, durationMs);
    // 124 = `timeout` sent TERM, 137 = it had to KILL. A command may exit 124 by itself, hence the clock.
    const killedByTimeout = (result.exitCode === 124 || result.exitCode === 137) && durationMs >= timeoutMs;
    const timedOut = result.deadlineHit || killedByTimeout;
    const oomKilled =
      !timedOut && result.exitCode === 137 && (result.oomKilled ?? (await this.oomKilledSince()));
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
      ...(oomKilled ? { oomKilled: true } : {}),
      ...(timedOut
        ? { killedReason: "timeout" as const }
        : oomKilled
          ? { killedReason: "oom" as const }
          : {}),
    };
  }

  /** Through the persistent shell when it is up; plain docker exec when it is not (or cannot spawn). */
  private async runArgv(
    argv: string[],
    options: RunOptions & { direct?: DirectCommand },
  ): Promise<RunResult & { oomKilled?: boolean }> {
    const agent = await this.deps.agent?.().catch(() => null);
    if (agent?.isAlive) {
      try {
        return await agent.run(argv, options);
      } catch (error) {
        if (!(error instanceof AgentUnavailableError && error.notStarted)) throw error;
        this.deps.log.debug({ sessionId: this.sessionId, err: error.message }, "sandbox shell unavailable");
      }
    }
    const { direct: _direct, ...plain } = options;
    return runInContainer(this.deps.container, argv, plain);
  }

  /** Slow path: did the cgroup's OOM killer act since the last look? */
  private async oomKilledSince(): Promise<boolean> {
    try {
      const result = await runInContainer(this.deps.container, ["sh", "-c", OOM_COUNT_SCRIPT], {
        deadlineMs: 10_000,
      });
      const count = Number.parseInt(result.stdout.trim(), 10);
      if (!Number.isFinite(count)) return false;
      const state = this.deps.oomState ?? { count: 0 };
      const killed = count > state.count;
      state.count = count;
      return killed;
    } catch {
      return false;
    }
  }

  async readFile(filePath: string): Promise<string> {
    const target = resolveContainerPath(filePath);
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
    const target = resolveContainerPath(filePath);
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
    this.deps.onDispose?.();
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
      return await this.runArgv(argv, { ...options, deadlineMs: FILE_OP_DEADLINE_MS });
    } catch (error) {
      throw this.deps.wrap(error, action);
    }
  }

  async endLeftovers(): Promise<{ ended: number; ranMs: number | null }> {
    try {
      const result = await runInContainer(this.deps.container, buildEndLeftoversArgv(), {
        deadlineMs: 10_000,
      });
      return parseEndedLeftovers(result.stdout);
    } catch (error) {
      throw this.deps.wrap(error, "end the commands left running before the restart");
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

/** A command cut by its caller's signal: what it printed until then, killed for the abort. */
function abortedResult(result: RunResult, durationMs: number): ExecResult {
  return {
    exitCode: result.exitCode,
    stdout: result.stdout,
    stderr: result.stderr,
    timedOut: false,
    truncated: result.truncated,
    durationMs,
    aborted: true,
    killedReason: "aborted",
  };
}

/** The signal was aborted before the command could start: it never runs. */
function abortedBeforeStart(): ExecResult {
  return abortedResult(
    { exitCode: ABORTED_EXIT_CODE, stdout: "", stderr: "", truncated: false, deadlineHit: false },
    0,
  );
}

/** "cat: /x: No such file or directory" → "No such file or directory". */
function cleanError(stderr: string): string {
  const line = stderr.trim().split("\n").at(-1) ?? "";
  return line.split(": ").at(-1) || "unknown error";
}
