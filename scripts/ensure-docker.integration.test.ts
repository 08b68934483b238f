import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

/**
 * scripts/ensure-docker.sh against stand-ins for `docker`, `dockerd`, `nohup` and `pidof` on PATH (the
 * real engine is left alone). The stand-in `nohup` waits 1.5 s before it becomes dockerd, the window in
 * which the old script's `pidof dockerd` found nothing and died with "dockerd exited during startup".
 */
const script = path.resolve(import.meta.dirname, "ensure-docker.sh");
const dirs: string[] = [];

function executable(file: string, body: string) {
  writeFileSync(file, `#!/usr/bin/env bash\n${body}\n`);
  chmodSync(file, 0o755);
}

function world(mode: "ok" | "fail" | "fail-once") {
  const dir = mkdtempSync(path.join(tmpdir(), "arbor-ensure-docker-"));
  dirs.push(dir);
  const bin = path.join(dir, "bin");
  mkdirSync(bin);
  executable(
    path.join(bin, "docker"),
    `case "$1" in info) [ -f "${dir}/up" ];; version) echo fake-27;; *) exit 1;; esac`,
  );
  executable(
    path.join(bin, "dockerd"),
    `echo $$ >"${dir}/dockerd.pid"
start() { echo "API listen on /var/run/docker.sock"; sleep 0.5; touch "${dir}/up"; exec sleep 30; }
case "${mode}" in
  ok) start ;;
  fail) echo "failed to start daemon: error initializing graphdriver: boom"; exit 1 ;;
  fail-once)
    if [ ! -f "${dir}/failed-once" ]; then touch "${dir}/failed-once"; echo "failed to start daemon: first try"; exit 1; fi
    start ;;
esac`,
  );
  executable(path.join(bin, "nohup"), `sleep 1.5\nexec "$@"`);
  executable(
    path.join(bin, "pidof"),
    `pgrep -f -- "${bin}/dockerd" | tr '\\n' ' ' | grep -q . && pgrep -f -- "${bin}/dockerd" | tr '\\n' ' '`,
  );
  return { dir, bin, log: path.join(dir, "dockerd.log") };
}

function run(w: ReturnType<typeof world>) {
  const result = spawnSync("bash", [script], {
    encoding: "utf8",
    env: {
      ...process.env,
      PATH: `${w.bin}:${process.env.PATH}`,
      ARBOR_DOCKERD_LOG: w.log,
      ARBOR_DOCKERD_PIDFILE: path.join(w.dir, "docker.pid"),
      ARBOR_DOCKERD_WAIT_SECONDS: "10",
    },
    timeout: 60_000,
  });
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

afterEach(() => {
  for (const dir of dirs.splice(0)) {
    const pidFile = path.join(dir, "dockerd.pid");
    if (existsSync(pidFile)) {
      try {
        process.kill(Number(readFileSync(pidFile, "utf8").trim()));
      } catch {
        // already gone
      }
    }
    rmSync(dir, { recursive: true, force: true });
  }
});

describe("ensure-docker.sh", () => {
  it("waits on the engine it started, even before the process has become dockerd", () => {
    const w = world("ok");
    const { status, out } = run(w);
    expect(out).not.toContain("exited during startup");
    expect(status).toBe(0);
    expect(out).toMatch(/Docker engine is up after \d+s \(fake-27\)/);
  });

  it("retries a start that fails, showing that attempt's log", () => {
    const w = world("fail-once");
    const { status, out } = run(w);
    expect(status).toBe(0);
    expect(out).toContain("attempt 1 of 3");
    expect(out).toMatch(/exited during startup with status 1/);
    expect(out).toContain("failed to start daemon: first try");
    expect(out).toContain("attempt 2 of 3");
  });

  it("gives up after the attempts with every attempt's log shown", () => {
    const w = world("fail");
    const { status, out } = run(w);
    expect(status).toBe(1);
    expect(out.match(/failed to start daemon: error initializing graphdriver: boom/g)).toHaveLength(3);
    expect(out).toContain("did not start after 3 attempts");
  });
});
