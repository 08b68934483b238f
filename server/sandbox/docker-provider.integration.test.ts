import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExecOptions, ExecResult } from "@/server/domain/sandbox-port";
import {
  containerExists,
  dockerInspect,
  makeBareRepo,
  PREFIX,
  ROOT,
  silent,
  tempDirs,
} from "@/testing/sandbox/docker";
import { DockerSandboxProvider } from "./docker-provider";
import { type Sandbox, SandboxFileError, SandboxImageMissingError, SandboxUnavailableError } from "./types";

/**
 * Runs against the real Docker engine (start it with scripts/ensure-docker.sh). The image is built or
 * confirmed up to date by sandbox-image/build.sh before the tests.
 */
let provider: DockerSandboxProvider;
let sandbox: Sandbox;

beforeAll(() => {
  execFileSync("bash", [path.join(ROOT, "sandbox-image/build.sh")], { stdio: "pipe" });
  // Its own instance: sweeps here never touch other sandboxes on the engine, nor theirs ours.
  provider = new DockerSandboxProvider({ logger: silent, instance: PREFIX });
}, 600_000);

afterAll(async () => {
  // Remove only this run's containers: other sessions on the engine count as live.
  await provider?.sweepOrphans((ids) => new Set(ids.filter((id) => !id.startsWith(PREFIX))));
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

describe("a sandbox made from a repository", () => {
  const sessionId = `${PREFIX}-main`;

  beforeAll(async () => {
    sandbox = await provider.create({ sessionId, repoPath: makeBareRepo(true) });
  });

  it("runs commands inside the container as uid 1000 in /workspace", async () => {
    const marker = await sandbox.exec("cat /etc/arbor-sandbox");
    expect(marker.exitCode).toBe(0);
    expect(marker.stdout.split("\n")[0]).toBe("arbor-sandbox");
    const who = await sandbox.exec("id -u; pwd");
    expect(who.stdout).toBe("1000\n/workspace\n");
  });

  it("propagates exit codes and captures stderr separately", async () => {
    const result = await sandbox.exec("echo out; echo 'it failed' >&2; exit 7");
    expect(result).toMatchObject({ exitCode: 7, stdout: "out\n", stderr: "it failed\n", timedOut: false });
    expect(result.truncated).toBe(false);
    expect(result.durationMs).toBeGreaterThan(0);
  });

  it("streams output in chunks as it is produced", async () => {
    const chunks: Array<{ stream: string; chunk: string; at: number }> = [];
    const result = await sandbox.exec("for i in 1 2 3; do echo line$i; sleep 0.3; done; echo done >&2", {
      onOutput: (stream, chunk) => chunks.push({ stream, chunk, at: Date.now() }),
    });
    expect(result.stdout).toBe("line1\nline2\nline3\n");
    const stdoutChunks = chunks.filter((c) => c.stream === "stdout");
    expect(stdoutChunks.length).toBeGreaterThanOrEqual(3);
    expect(stdoutChunks.map((c) => c.chunk).join("")).toBe(result.stdout);
    // Live, not buffered to the end: the first and last line arrive well apart.
    expect((stdoutChunks.at(-1)?.at ?? 0) - (stdoutChunks[0]?.at ?? 0)).toBeGreaterThan(400);
    expect(chunks.some((c) => c.stream === "stderr" && c.chunk === "done\n")).toBe(true);
  });

  it("reports a timeout and kills the command", async () => {
    const result = await sandbox.exec("echo started; sleep 30; echo never", { timeoutMs: 1_000 });
    expect(result.timedOut).toBe(true);
    expect(result.exitCode).toBe(124);
    expect(result.stdout).toBe("started\n");
    expect(result.durationMs).toBeLessThan(5_000);
    // The bracket keeps pgrep from matching its own command line.
    const left = await sandbox.exec("pgrep -f 'slee[p] 30' || echo none");
    expect(left.stdout.trim()).toBe("none");
  });

  it("kills a command that ignores SIGTERM", async () => {
    const result = await sandbox.exec("trap '' TERM; sleep 40", { timeoutMs: 500 });
    expect(result).toMatchObject({ timedOut: true, exitCode: 137 });
    const left = await sandbox.exec("pgrep -f 'slee[p] 40' || echo none");
    expect(left.stdout.trim()).toBe("none");
  });

  it("caps captured output, keeping head and tail around a marker", async () => {
    const result = await sandbox.exec("echo HEAD; head -c 300000 /dev/zero | tr '\\0' a; echo; echo TAIL", {
      maxOutputBytes: 1_000,
    });
    expect(result.exitCode).toBe(0);
    expect(result.truncated).toBe(true);
    expect(result.stdout.startsWith("HEAD\n")).toBe(true);
    expect(result.stdout.endsWith("TAIL\n")).toBe(true);
    expect(result.stdout).toMatch(/…\[\d+ bytes truncated\]…/);
    expect(result.stdout.length).toBeLessThan(1_100);
  });

  it("has the repository cloned in /workspace on the session branch", async () => {
    expect(await sandbox.readFile("README.md")).toBe("# Sandbox test project\n");
    const branch = await sandbox.exec("git rev-parse --abbrev-ref HEAD && git log --oneline | wc -l");
    expect(branch.stdout).toBe(`arbor/${sessionId}\n1\n`);
    const status = await sandbox.exec("git status --porcelain && git remote get-url origin");
    expect(status.stdout).toBe("/home/arbor/origin.git\n");
    // Copied in by the Engine API, owned by the sandbox user (no bind mount).
    const owner = await sandbox.exec("stat -c %u /home/arbor/origin.git/HEAD /workspace/README.md");
    expect(owner.stdout).toBe("1000\n1000\n");
  });

  it("leaves no Python bytecode in the workspace when the project's code is imported (no changes of its own)", async () => {
    await sandbox.exec(
      "mkdir -p pkg && echo 'X = 1' > pkg/mod.py && git add pkg && git -c user.email=t@t -c user.name=t commit -qm pkg",
    );
    expect((await sandbox.exec("python3 -c 'import pkg.mod' && git status --porcelain")).stdout).toBe("");
    await sandbox.exec("git reset -q --hard HEAD~1");
  });

  it("writes and reads back a file with tricky content", async () => {
    const content = `it's "quoted" $HOME \`whoami\` \\n $(rm -rf /) ✓ ünïcödé\n\nno newline at end`;
    await sandbox.writeFile("deep/new dir/tricky.txt", content);
    expect(await sandbox.readFile("/workspace/deep/new dir/tricky.txt")).toBe(content);
    const seen = await sandbox.exec("stat -c %u 'deep/new dir/tricky.txt' && cat 'deep/new dir/tricky.txt'");
    expect(seen.stdout).toBe(`1000\n${content}`);
  });

  it("honours cwd, env and stdin", async () => {
    await sandbox.writeFile("sub/dir/x.txt", "x");
    const result = await sandbox.exec('pwd; echo "$GREETING"; tr a-z A-Z', {
      cwd: "sub/dir",
      env: { GREETING: "hello $world" },
      stdin: "from stdin\n",
    });
    expect(result.stdout).toBe("/workspace/sub/dir\nhello $world\nFROM STDIN\n");
    const missing = await sandbox.exec("true", { cwd: "no/such/dir" });
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain("No such file or directory");
  });

  it("reports missing files and unwritable paths as SandboxFileError", async () => {
    await expect(sandbox.readFile("missing.txt")).rejects.toThrow(SandboxFileError);
    await expect(sandbox.readFile("missing.txt")).rejects.toThrow(/No such file or directory/);
    await expect(sandbox.writeFile("/etc/passwd", "x")).rejects.toThrow(/Read-only file system/);
  });

  it("runs with the hardened container settings", () => {
    const info = dockerInspect(sandbox.containerName);
    expect(info.HostConfig.CapDrop).toEqual(["ALL"]);
    expect(info.HostConfig.SecurityOpt).toEqual(["no-new-privileges:true"]);
    expect(info.HostConfig.PidsLimit).toBe(256);
    expect(info.HostConfig.Memory).toBe(1024 ** 3);
    expect(info.HostConfig.MemorySwap).toBe(info.HostConfig.Memory);
    expect(info.HostConfig.NanoCpus).toBe(1e9);
    expect(info.HostConfig.NetworkMode).toBe("none");
    expect(info.HostConfig.Privileged).toBe(false);
    expect(info.HostConfig.Binds ?? []).toEqual([]);
    expect(info.HostConfig.ReadonlyRootfs).toBe(true);
    expect(info.HostConfig.Tmpfs).toEqual({ "/tmp": "rw,nosuid,nodev,size=256m" });
    // The only mounts: the two anonymous volumes (writable /workspace and HOME), never a host path.
    const mounts = info.Mounts as Array<{ Type: string; Destination: string; Source: string }>;
    expect(mounts.map((m) => m.Type)).toEqual(["volume", "volume"]);
    expect(mounts.map((m) => m.Destination).sort()).toEqual(["/home/arbor", "/workspace"]);
    expect(JSON.stringify(info)).not.toContain("docker.sock");
    expect(info.HostConfig.NetworkMode).not.toBe("host");
    expect(info.Config.User).toBe("1000:1000");
  });

  it("can write only to /workspace, /tmp and /home/arbor (read-only root)", async () => {
    for (const dir of ["/workspace", "/tmp", "/home/arbor"]) {
      const ok = await sandbox.exec(`echo x > ${dir}/.probe && cat ${dir}/.probe && rm ${dir}/.probe`);
      expect(ok).toMatchObject({ exitCode: 0, stdout: "x\n" });
    }
    for (const target of ["/etc/arbor-probe", "/usr/local/bin/probe", "/probe", "/var/tmp/probe"]) {
      const denied = await sandbox.exec(`touch ${target}`);
      expect(denied.exitCode).not.toBe(0);
      expect(denied.stderr).toMatch(/Read-only file system|Permission denied/);
    }
    // /tmp is a size-capped tmpfs, not part of the image.
    const tmp = await sandbox.exec("grep ' /tmp ' /proc/mounts");
    expect(tmp.stdout).toMatch(/^tmpfs \/tmp tmpfs rw,nosuid,nodev.*size=262144k/);
  });

  it("gives byte-identical results through the persistent shell and plain docker exec", async () => {
    // Each run has its own random tag (it is $0); everything else must match byte for byte.
    const comparable = (result?: ExecResult) =>
      result && {
        ...result,
        durationMs: 0,
        stdout: result.stdout.replace(/arbor-exec-[0-9a-f]{12}/g, "<tag>"),
        stderr: result.stderr.replace(/arbor-exec-[0-9a-f]{12}/g, "<tag>"),
      };
    const slow = new DockerSandboxProvider({ logger: silent, instance: PREFIX, persistentShell: false });
    const viaExec = await slow.get(sessionId);
    expect(viaExec?.id).toBe(sandbox.id);
    const commands = [
      "env | sort",
      "echo out; echo err >&2; exit 3",
      "printf 'no newline ✓ \\x00\\xff'",
      "ulimit -a; umask; trap -p",
      "cat",
      "seq 1 20000",
      "ls -la /workspace /home/arbor | sed 1d",
      "kill -TERM $$",
      "sleep 0.1 & echo started; wait",
      'echo "$0"; pwd; echo "$OLDPWD"; ls /proc/self/fd | wc -l',
    ];
    for (const command of commands) {
      const options = { stdin: "piped ✓\n", env: { EXTRA: "1 $x" } };
      const fast = await sandbox.exec(command, options);
      const plain = await viaExec?.exec(command, options);
      expect(comparable(fast), command).toEqual(comparable(plain));
    }
    const variants: Array<[string, ExecOptions]> = [
      ["pwd; echo $PWD $OLDPWD; env | sort", { cwd: "sub/dir" }],
      ["pwd", { cwd: "no/such/dir" }],
      ["echo begin; sleep 5", { timeoutMs: 300 }],
      ["trap '' TERM; echo begin; sleep 5", { timeoutMs: 300 }],
      ["echo quiet", {}],
    ];
    for (const [command, options] of variants) {
      const fast = await sandbox.exec(command, options);
      const plain = await viaExec?.exec(command, options);
      expect(comparable(fast), command).toEqual(comparable(plain));
    }
  });

  it("falls back to docker exec when the persistent shell dies, then restarts it", async () => {
    expect((await sandbox.exec("echo before")).stdout).toBe("before\n");
    // The agent is the python3 process started with `-I -u -c`; kill it from outside.
    execFileSync("docker", ["exec", sandbox.containerName, "pkill", "-KILL", "-f", "^python3 -I -u -c"]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (let i = 0; i < 3; i++) {
      const result = await sandbox.exec("echo after; echo e >&2");
      expect(result).toMatchObject({ exitCode: 0, stdout: "after\n", stderr: "e\n" });
    }
    expect(await sandbox.readFile("README.md")).toBe("# Sandbox test project\n");
  });

  it("re-attaches to the same container by session", async () => {
    const again = await provider.get(sessionId);
    expect(again?.id).toBe(sandbox.id);
    const created = await provider.create({ sessionId });
    expect(created.id).toBe(sandbox.id);
    expect((await created.exec("test -f README.md && echo kept")).stdout).toBe("kept\n");
    expect(await provider.get(`${PREFIX}-nobody`)).toBeNull();
  });

  it("dispose removes the container", async () => {
    await sandbox.dispose();
    expect(containerExists(sandbox.containerName)).toBe(false);
    await sandbox.dispose();
    expect(await provider.get(sessionId)).toBeNull();
  });
});

describe("other sandbox lifecycles", () => {
  it("a create and a get for the same session at once share one container, cloned once", async () => {
    const sessionId = `${PREFIX}-race`;
    const [made, seen, again] = await Promise.all([
      provider.create({ sessionId, repoPath: makeBareRepo(true) }),
      provider.get(sessionId),
      provider.create({ sessionId, repoPath: makeBareRepo(true) }),
    ]);
    try {
      expect(seen?.id).toBe(made.id);
      expect(again.id).toBe(made.id);
      expect((await made.exec("cat README.md")).stdout).toBe("# Sandbox test project\n");
    } finally {
      await made.dispose();
    }
  });

  it("clones an empty repository (no commits) onto the requested branch", async () => {
    const box = await provider.create({
      sessionId: `${PREFIX}-empty`,
      repoPath: makeBareRepo(false),
      branch: "feature/x",
    });
    try {
      const result = await box.exec("git symbolic-ref --short HEAD && ls -A | tr '\\n' ' '");
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toBe("feature/x\n.git ");
      const commit = await box.exec(
        "echo hi > a.txt && git add a.txt && git commit -qm first && git log --format=%an",
      );
      expect(commit.stdout).toBe("Arbor Agent\n");
    } finally {
      await box.dispose();
    }
  });

  it("keeps /workspace and HOME across a stop and restart, and gets a new shell", async () => {
    const box = await provider.create({ sessionId: `${PREFIX}-restart`, repoPath: makeBareRepo(true) });
    try {
      await box.writeFile("notes.txt", "kept\n");
      await box.exec("echo home > ~/h.txt; echo tmp > /tmp/t.txt");
      execFileSync("docker", ["stop", "-t", "1", box.containerName], { stdio: "ignore" });
      const again = await provider.get(box.sessionId);
      expect(again?.id).toBe(box.id);
      const result = await again?.exec("cat notes.txt ~/h.txt; ls /tmp; git -C /workspace status --short");
      // The volumes survive; /tmp is a tmpfs and starts empty again.
      expect(result).toMatchObject({ exitCode: 0, stdout: "kept\nhome\n?? notes.txt\n" });
    } finally {
      await box.dispose();
    }
  });

  it("sweeps orphaned containers and keeps live ones", async () => {
    const orphan = await provider.create({ sessionId: `${PREFIX}-orphan` });
    const live = await provider.create({ sessionId: `${PREFIX}-live` });
    try {
      const asked: string[][] = [];
      const { removed, kept } = await provider.sweepOrphans(async (ids) => {
        asked.push(ids);
        return new Set(ids.filter((id) => id !== orphan.sessionId));
      });
      expect(asked[0]).toEqual(expect.arrayContaining([orphan.sessionId, live.sessionId]));
      expect(removed).toContain(orphan.sessionId);
      expect(kept).toContain(live.sessionId);
      expect(containerExists(orphan.containerName)).toBe(false);
      expect(containerExists(live.containerName)).toBe(true);
    } finally {
      await live.dispose();
    }
  });

  it("leaves containers of another Arbor instance alone when sweeping", async () => {
    const neighbour = new DockerSandboxProvider({ logger: silent, instance: `${PREFIX}-other` });
    const theirs = await neighbour.create({ sessionId: `${PREFIX}-theirs` });
    try {
      const { removed } = await provider.sweepOrphans(() => new Set<string>());
      expect(removed).not.toContain(theirs.sessionId);
      expect(containerExists(theirs.containerName)).toBe(true);
      expect((await neighbour.sweepOrphans(() => new Set<string>())).removed).toEqual([theirs.sessionId]);
      expect(containerExists(theirs.containerName)).toBe(false);
    } finally {
      await theirs.dispose();
    }
  });

  it("refuses a path that is not a bare repository", async () => {
    await expect(provider.create({ sessionId: `${PREFIX}-bad`, repoPath: tmpdir() })).rejects.toThrow(
      /Not a bare git repository/,
    );
    expect(containerExists(`arbor-session-${PREFIX}-bad`)).toBe(false);
  });

  it("names a missing image", async () => {
    const other = new DockerSandboxProvider({ image: "arbor-sandbox-missing:nope", logger: silent });
    await expect(other.create({ sessionId: `${PREFIX}-noimage` })).rejects.toThrow(SandboxImageMissingError);
  });

  it("ping() reports an unreachable engine with SandboxUnavailableError", async () => {
    const socketPath = "/nonexistent/arbor-test-docker.sock";
    const down = new DockerSandboxProvider({ dockerOptions: { socketPath }, logger: silent });
    await expect(provider.ping()).resolves.toBeUndefined();
    const error = await down.ping().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxUnavailableError);
    expect((error as Error).message).toContain(`Docker engine is not reachable at ${socketPath}`);
    expect((error as Error).message).toContain("is dockerd running?");
    await expect(down.create({ sessionId: `${PREFIX}-down` })).rejects.toThrow(SandboxUnavailableError);
  });
});
