import type { Duplex } from "node:stream";
import { PassThrough } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import type DockerModem from "docker-modem";
import type Docker from "dockerode";
import { ABORT_GRACE_MS, ABORTED_EXIT_CODE, type RunOptions, type RunResult } from "./docker-exec";
import { CappedOutput, DEFAULT_MAX_OUTPUT_BYTES } from "./output";
import type { OutputStream } from "./types";

/**
 * The persistent shell: one long-lived `docker exec -i python3` per sandbox that spawns commands on
 * request, so a command costs a pipe write instead of an Engine API exec round trip. It runs exactly
 * the argv the slow path would (same wrapper, same `timeout`), with the same environment (it is itself
 * a docker exec process) plus the command's extra env, so results are byte-identical.
 *
 * Wire format. Host → agent: 4-byte big-endian length + JSON ({id, argv, env, stdin(base64)|null} or
 * {kill: id}). Agent → host (on its stdout): 1-byte type, 4-byte id, 4-byte length, payload; types
 * 1 stdout, 2 stderr, 3 exit (JSON {code, oom}), 4 spawn error (text), 5 ready.
 * No threads (a fork bomb can exhaust the pids limit, and threads count): one select loop, SIGCHLD
 * through a wakeup pipe.
 * (The source has no backslashes and no "${"; keep it so, or it must become String.raw again.)
 */
export const AGENT_SOURCE = `
import os, sys, json, base64, struct, selectors, signal, subprocess, fcntl, time
OUT = 1
def start_dir():
    # Where bash would say it starts (its PWD): the inherited PWD when it names this directory.
    cwd, pwd = os.getcwd(), os.environ.get("PWD")
    try:
        if pwd and os.path.samefile(pwd, cwd): return pwd
    except OSError: pass
    return cwd
START_DIR = start_dir()
def send(t, i, data):
    buf = struct.pack(">BII", t, i, len(data)) + data
    while buf:
        n = os.write(OUT, buf)
        buf = buf[n:]
def oom_count():
    for path in ("/sys/fs/cgroup/memory.events", "/sys/fs/cgroup/memory/memory.oom_control"):
        try:
            with open(path) as f:
                for line in f:
                    k, _, v = line.partition(" ")
                    if k == "oom_kill":
                        return int(v)
        except OSError:
            pass
    return -1
def nonblock(fd):
    fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) | os.O_NONBLOCK)
sel = selectors.DefaultSelector()
wr, ww = os.pipe()
nonblock(wr); nonblock(ww)
signal.set_wakeup_fd(ww)
signal.signal(signal.SIGCHLD, lambda *a: None)
sel.register(wr, selectors.EVENT_READ, ("wake", None))
nonblock(0)
sel.register(0, selectors.EVENT_READ, ("ctl", None))
jobs = {}
inbuf = b""
def finish_if_done(j):
    if j["open"] == 0 and j["code"] is not None and not j["done"]:
        j["done"] = True
        oom = j["oom0"] >= 0 and oom_count() > j["oom0"]
        send(3, j["id"], json.dumps({"code": j["code"], "oom": oom}).encode())
        del jobs[j["id"]]
def reap():
    now = time.monotonic()
    for j in list(jobs.values()):
        if j["code"] is None:
            rc = j["p"].poll()
            if rc is not None:
                # As timeout(1) reports it: 124 after TERM, 137 when KILL was needed.
                if j["killed"]: rc = 137
                elif j["timedout"]: rc = 124
                j["code"] = rc if rc >= 0 else 128 - rc
                finish_if_done(j)
            elif j["deadline"] is not None and now >= j["deadline"]:
                j["deadline"] = None
                if not j["timedout"]:
                    j["timedout"] = True
                    j["deadline"] = now + j["killafter"]
                    sig = signal.SIGTERM
                else:
                    j["killed"] = True
                    sig = signal.SIGKILL
                for f in (lambda: os.kill(j["p"].pid, sig), lambda: os.killpg(j["p"].pid, sig)):
                    try: f()
                    except OSError: pass
def next_wait():
    ds = [j["deadline"] for j in jobs.values() if j["deadline"] is not None and j["code"] is None]
    return max(0.0, min([1.0] + [d - time.monotonic() for d in ds]))
def start(req):
    i = req["id"]
    env = dict(os.environ)
    env.update(req.get("env") or {})
    data = base64.b64decode(req["stdin"]) if req.get("stdin") is not None else None
    oom0 = oom_count()
    d = req.get("direct")
    argv, cwd, extra, deadline, killafter = req["argv"], None, {}, None, 0
    # Do the wrapper's job here (cd, own process group, TERM then KILL on time) and save its two
    # processes; when the directory is not usable, run the wrapper so its error is the same.
    if d and os.path.isdir(d["cwd"]) and os.access(d["cwd"], os.X_OK):
        argv, cwd, extra = ["bash", "-c", d["command"], d["tag"]], d["cwd"], {"process_group": 0}
        # What the wrapper's cd leaves in the environment.
        env["OLDPWD"], env["PWD"] = START_DIR, d["cwd"]
        deadline, killafter = time.monotonic() + d["timeoutMs"] / 1000.0, d["killAfterMs"] / 1000.0
    try:
        p = subprocess.Popen(argv, stdin=subprocess.PIPE if data is not None else subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, close_fds=True,
                             cwd=cwd, **extra)
    except Exception as e:
        send(4, i, str(e).encode()); return
    j = {"id": i, "p": p, "open": 2, "code": None, "done": False, "oom0": oom0, "in": data,
         "deadline": deadline, "killafter": killafter, "timedout": False, "killed": False}
    jobs[i] = j
    for fd, t in ((p.stdout.fileno(), 1), (p.stderr.fileno(), 2)):
        nonblock(fd)
        sel.register(fd, selectors.EVENT_READ, ("out", (j, t)))
    if data is not None:
        fd = p.stdin.fileno()
        nonblock(fd)
        if data:
            sel.register(fd, selectors.EVENT_WRITE, ("in", j))
        else:
            p.stdin.close()
def kill(i):
    j = jobs.get(i)
    if j:
        for f in (lambda: os.killpg(j["p"].pid, 9), lambda: os.kill(j["p"].pid, 9)):
            try: f()
            except OSError: pass
send(5, 0, b"")
while True:
    for key, _ in sel.select(next_wait()):
        kind, extra = key.data
        if kind == "wake":
            try:
                while os.read(wr, 512): pass
            except OSError: pass
        elif kind == "ctl":
            try: chunk = os.read(0, 1 << 16)
            except BlockingIOError: continue
            if not chunk:
                for i in list(jobs): kill(i)
                sys.exit(0)
            inbuf += chunk
            while len(inbuf) >= 4:
                (n,) = struct.unpack(">I", inbuf[:4])
                if len(inbuf) < 4 + n: break
                req = json.loads(inbuf[4:4 + n]); inbuf = inbuf[4 + n:]
                if "kill" in req: kill(req["kill"])
                else: start(req)
        elif kind == "out":
            j, t = extra
            try: chunk = os.read(key.fd, 1 << 16)
            except BlockingIOError: continue
            if chunk:
                send(t, j["id"], chunk)
            else:
                sel.unregister(key.fd)
                (j["p"].stdout if t == 1 else j["p"].stderr).close()
                j["open"] -= 1
                finish_if_done(j)
        elif kind == "in":
            j = extra
            try:
                n = os.write(key.fd, j["in"][:1 << 16]); j["in"] = j["in"][n:]
            except BlockingIOError: continue
            except OSError: j["in"] = b""
            if not j["in"]:
                sel.unregister(key.fd)
                try: j["p"].stdin.close()
                except OSError: pass
    reap()
`;

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
  sinks: { stdout: AgentSink; stderr: AgentSink };
  resolve: (result: { code: number; oom: boolean }) => void;
  reject: (error: AgentUnavailableError) => void;
  started: boolean;
}

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
      Cmd: ["python3", "-u", "-c", AGENT_SOURCE],
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
      stdout: new AgentSink("stdout", max, options.onOutput),
      stderr: new AgentSink("stderr", max, options.onOutput),
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

/** One output stream of one command: bytes to the capped capture, decoded text to the callback. */
class AgentSink {
  readonly capture: CappedOutput;
  private readonly decoder = new StringDecoder("utf8");

  constructor(
    private readonly name: OutputStream,
    maxBytes: number,
    private readonly onOutput?: (stream: OutputStream, chunk: string) => void,
  ) {
    this.capture = new CappedOutput(maxBytes);
  }

  push(chunk: Buffer): void {
    // The frame parser reuses no memory, but copy anyway: CappedOutput keeps references.
    this.capture.push(Buffer.from(chunk));
    this.emit(this.decoder.write(chunk));
  }

  finish(): string {
    this.emit(this.decoder.end());
    return this.capture.toString();
  }

  private emit(text: string): void {
    if (text === "" || !this.onOutput) return;
    try {
      this.onOutput(this.name, text);
    } catch {
      // A failing listener must not break the command's result.
    }
  }
}
