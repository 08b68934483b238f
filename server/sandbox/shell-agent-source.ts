import "server-only";
/**
 * The persistent shell's program (python3, run by `ShellAgent` as `docker exec -i python3 -I -u -c`).
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
