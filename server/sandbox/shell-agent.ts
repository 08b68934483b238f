import "server-only";
import type { Duplex } from "node:stream";
import { PassThrough } from "node:stream";
import type DockerModem from "docker-modem";
import type Docker from "dockerode";
import { ABORT_GRACE_MS, ABORTED_EXIT_CODE, type RunOptions, type RunResult } from "./docker-exec";
import { DEFAULT_MAX_OUTPUT_BYTES } from "./output";
import { OutputSink } from "./output-sink";
import { AGENT_SOURCE } from "./shell-agent-source";

export interface AgentRunResult extends RunResult {
  oomKilled: boolean;
}

/**
 * What `buildExecArgv`'s wrapper does, for the agent to do itself (two fewer processes per command).
 * The argv passed along is still the wrapper, used when `cwd` is not a usable directory.
 */
export interface DirectCommand {
  command: string;
  cwd: string;
  tag: string;
  timeoutMs: number;
  killAfterMs: number;
}

/** The agent's connection broke or it could not spawn: the caller may fall back to a plain exec. */
export class AgentUnavailableError extends Error {
  constructor(
    message: string,
    /** True when the command was never started, so running it another way is safe. */
    readonly notStarted: boolean,
  ) {
    super(message);
    this.name = "AgentUnavailableError";
  }
}

interface Job {
  sinks: { stdout: OutputSink; stderr: OutputSink };
  resolve: (result: { code: number; oom: boolean }) => void;
  reject: (error: AgentUnavailableError) => void;
  started: boolean;
}

/**
 * The persistent shell: one long-lived `docker exec -i python3` per sandbox that spawns commands on
 * request, so a command costs a pipe write instead of an Engine API exec round trip. It runs exactly
 * the argv the slow path would (same wrapper, same `timeout`), with the same environment (it is itself
 * a docker exec process) plus the command's extra env, so results are byte-identical.
 *
 * The program it runs and its wire format: `shell-agent-source.ts`.
 */
export class ShellAgent {
  private nextId = 1;
  private readonly jobs = new Map<number, Job>();
  private buffer: Buffer = Buffer.alloc(0);
  private alive = true;
  private readyResolve?: () => void;

  private constructor(private readonly stream: Duplex) {}

  get isAlive(): boolean {
    return this.alive;
  }

  /** Starts the agent in the container; resolves once it said it is ready. */
  static async start(container: Docker.Container, readyTimeoutMs = 10_000): Promise<ShellAgent> {
    const exec = await container.exec({
      // -I (isolated): no user site-packages, no PYTHON* variables. ~/.local is writable by the agent's
      // commands, and a planted `.pth` or usercustomize.py would otherwise run inside Arbor's runner.
      Cmd: ["python3", "-I", "-u", "-c", AGENT_SOURCE],
      AttachStdin: true,
      AttachStdout: true,
      AttachStderr: true,
      Tty: false,
    });
    const stream = (await exec.start({ hijack: true, stdin: true })) as Duplex;
    // A forgotten sandbox must not keep a script alive; a running command holds its own timer.
    (stream as Duplex & { unref?: () => void }).unref?.();
    const agent = new ShellAgent(stream);
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    (container.modem as DockerModem).demuxStream(stream, stdout, stderr);
    stdout.on("data", (chunk: Buffer) => agent.onData(chunk));
    stderr.resume();
    const down = () => agent.shutdown("the sandbox shell exited");
    stream.on("end", down);
    stream.on("close", down);
    stream.on("error", down);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        agent.close();
        reject(new AgentUnavailableError("the sandbox shell did not start", true));
      }, readyTimeoutMs);
      agent.readyResolve = () => {
        clearTimeout(timer);
        resolve();
      };
      stream.once("close", () => {
        clearTimeout(timer);
        reject(new AgentUnavailableError("the sandbox shell exited at start", true));
      });
    });
    return agent;
  }

  /** Same contract as runInContainer, plus whether the kernel's OOM killer acted during the command. */
  async run(argv: string[], options: RunOptions & { direct?: DirectCommand }): Promise<AgentRunResult> {
    if (!this.alive) throw new AgentUnavailableError("the sandbox shell is not running", true);
    const id = this.nextId++;
    const max = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
    const sinks = {
      stdout: new OutputSink("stdout", max, options.onOutput),
      stderr: new OutputSink("stderr", max, options.onOutput),
    };
    let deadlineHit = false;
    let aborted = false;
    let timer: NodeJS.Timeout | undefined;
    let graceTimer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const outcome = await new Promise<{ code: number; oom: boolean }>((resolve, reject) => {
      this.jobs.set(id, { sinks, resolve, reject, started: false });
      timer = setTimeout(() => {
        deadlineHit = true;
        options.onDeadline?.();
        this.send({ kill: id });
        this.jobs.delete(id);
        resolve({ code: 124, oom: false });
      }, options.deadlineMs);
      // The agent kills the job's process group with KILL; its exit (137) then arrives as usual. Should
      // it not arrive, the host lets go after a grace and kills by tag the slow way.
      onAbort = () => {
        aborted = true;
        this.send({ kill: id });
        graceTimer = setTimeout(() => {
          options.onAbort?.();
          this.jobs.delete(id);
          resolve({ code: ABORTED_EXIT_CODE, oom: false });
        }, ABORT_GRACE_MS);
      };
      options.signal?.addEventListener("abort", onAbort, { once: true });
      this.send({
        id,
        argv,
        env: options.env ?? {},
        direct: options.direct ?? null,
        stdin: options.stdin === undefined ? null : Buffer.from(options.stdin, "utf8").toString("base64"),
      });
      if (options.signal?.aborted) onAbort();
    }).finally(() => {
      clearTimeout(timer);
      clearTimeout(graceTimer);
      if (onAbort) options.signal?.removeEventListener("abort", onAbort);
    });
    return {
      ...(aborted ? { aborted: true } : {}),
      exitCode: outcome.code,
      stdout: sinks.stdout.finish(),
      stderr: sinks.stderr.finish(),
      truncated: sinks.stdout.capture.truncated || sinks.stderr.capture.truncated,
      deadlineHit,
      oomKilled: outcome.oom,
    };
  }

  /** Ends the agent (and with it every command it still runs). */
  close(): void {
    this.shutdown("the sandbox shell was closed");
    this.stream.destroy();
  }

  private send(message: unknown): void {
    const body = Buffer.from(JSON.stringify(message), "utf8");
    const head = Buffer.alloc(4);
    head.writeUInt32BE(body.length);
    this.stream.write(Buffer.concat([head, body]));
  }

  private shutdown(reason: string): void {
    if (!this.alive) return;
    this.alive = false;
    for (const [id, job] of this.jobs) {
      this.jobs.delete(id);
      job.reject(new AgentUnavailableError(reason, !job.started));
    }
  }

  private onData(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    while (this.buffer.length >= 9) {
      const type = this.buffer.readUInt8(0);
      const id = this.buffer.readUInt32BE(1);
      const length = this.buffer.readUInt32BE(5);
      if (this.buffer.length < 9 + length) break;
      const payload = this.buffer.subarray(9, 9 + length);
      this.buffer = this.buffer.subarray(9 + length);
      if (type === 5) {
        this.readyResolve?.();
        continue;
      }
      const job = this.jobs.get(id);
      if (!job) continue;
      if (type !== 4) job.started = true;
      if (type === 1) job.sinks.stdout.push(payload);
      else if (type === 2) job.sinks.stderr.push(payload);
      else if (type === 3) {
        this.jobs.delete(id);
        const parsed = JSON.parse(payload.toString("utf8")) as { code: number; oom: boolean };
        job.resolve(parsed);
      } else if (type === 4) {
        this.jobs.delete(id);
        job.reject(new AgentUnavailableError(`cannot start the command: ${payload.toString("utf8")}`, true));
      }
    }
  }
}
