/**
 * Sandbox latency, measured against the real Docker engine: how long a session waits for its first
 * command, and what one `exec` costs compared with the Docker CLI doing the same round trip. When the
 * engine has gVisor (`runsc`, scripts/ensure-runsc.sh), the same figures under gVisor next to runc's,
 * plus 200 fork+exec inside the sandbox under each.
 * Run: npx tsx --import ./testing/server-only/loader.mjs bench/sandbox.bench.ts (needs dockerd and the image: sandbox-image/build.sh).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import pino from "pino";
import type { SandboxRuntime } from "@/server/domain/vocabulary/sandbox-runtime";
import { DockerSandboxProvider } from "@/server/sandbox/docker-provider";

const CREATE_RUNS = 5;
const EXEC_RUNS = 30;
const WARMUP = 3;

interface Row {
  name: string;
  runs: number;
  median: number;
  min: number;
  max: number;
}

function summarise(name: string, samples: number[]): Row {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
  return { name, runs: samples.length, median, min: sorted[0] ?? 0, max: sorted.at(-1) ?? 0 };
}

async function time(fn: () => Promise<unknown> | unknown): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

function makeRepo(dir: string): string {
  const bare = path.join(dir, "bench.git");
  const work = path.join(dir, "work");
  const git = (args: string[], cwd?: string) => execFileSync("git", args, { cwd, stdio: "ignore" });
  git(["init", "-q", "--bare", "--initial-branch=main", bare]);
  git(["clone", "-q", bare, work]);
  writeFileSync(path.join(work, "README.md"), "# bench\n");
  git(["add", "."], work);
  git(["-c", "user.name=Bench", "-c", "user.email=bench@example.com", "commit", "-qm", "init"], work);
  git(["push", "-q", "origin", "HEAD:main"], work);
  return bare;
}

export async function runSandboxBench(): Promise<Row[]> {
  const provider = new DockerSandboxProvider({ logger: pino({ level: "silent" }) });
  await provider.ping();
  const prefix = `bench-${randomBytes(3).toString("hex")}`;
  const tmp = mkdtempSync(path.join(tmpdir(), "arbor-bench-"));
  const rows: Row[] = [];
  const runtimes: SandboxRuntime[] = (await provider.runtimes()).includes("runsc")
    ? ["runc", "runsc"]
    : ["runc"];
  try {
    makeRepo(tmp);
    for (const runtime of runtimes) await benchRuntime(runtime);
  } finally {
    // Whatever a failure left behind: every container of this run counts as an orphan.
    await provider
      .sweepOrphans((ids) => new Set(ids.filter((id) => !id.startsWith(prefix))))
      .catch(() => undefined);
    rmSync(tmp, { recursive: true, force: true });
  }
  return rows;

  async function benchRuntime(runtime: SandboxRuntime): Promise<void> {
    const tag = runtime === "runc" ? "" : " [gVisor]";
    const repoPath = path.join(tmp, "bench.git");
    for (const [label, withRepo] of [
      [`create → first command done (empty workspace)${tag}`, false],
      [`create → first command done (clone small repo)${tag}`, true],
    ] as const) {
      const samples: number[] = [];
      for (let i = 0; i < CREATE_RUNS; i++) {
        const sessionId = `${prefix}-${runtime}-${withRepo ? "r" : "c"}${i}`;
        let dispose = async () => {};
        samples.push(
          await time(async () => {
            const sandbox = await provider.create({
              sessionId,
              repoPath: withRepo ? repoPath : undefined,
              runtime,
            });
            dispose = () => sandbox.dispose();
            const result = await sandbox.exec("true");
            if (result.exitCode !== 0) throw new Error(`first command failed: ${result.stderr}`);
          }),
        );
        await dispose();
      }
      rows.push(summarise(label, samples));
    }

    const sandbox = await provider.create({ sessionId: `${prefix}-${runtime}-exec`, runtime });
    try {
      for (let i = 0; i < WARMUP; i++) await sandbox.exec("true");
      const viaApi: number[] = [];
      for (let i = 0; i < EXEC_RUNS; i++) viaApi.push(await time(() => sandbox.exec("true")));
      rows.push(summarise(`sandbox.exec('true')${tag}`, viaApi));
      const forks: number[] = [];
      for (let i = 0; i < CREATE_RUNS; i++)
        forks.push(await time(() => sandbox.exec("for i in $(seq 200); do /bin/true; done")));
      rows.push(summarise(`200 fork+exec inside the sandbox${tag}`, forks));

      const cli = () => {
        const result = spawnSync("docker", ["exec", sandbox.containerName, "true"], { stdio: "ignore" });
        if (result.status !== 0) throw new Error("docker exec failed");
      };
      for (let i = 0; i < WARMUP; i++) cli();
      const viaCli: number[] = [];
      for (let i = 0; i < EXEC_RUNS; i++) viaCli.push(await time(cli));
      rows.push(summarise(`baseline: docker exec <c> true (CLI)${tag}`, viaCli));
    } finally {
      await sandbox.dispose();
    }
  }
}

function printTable(rows: Row[]): void {
  const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
  const width = Math.max(...rows.map((row) => row.name.length));
  console.log(`${"measure".padEnd(width)}  runs     median        min        max`);
  for (const row of rows) {
    console.log(
      `${row.name.padEnd(width)}  ${String(row.runs).padStart(4)} ${fmt(row.median).padStart(10)} ${fmt(row.min).padStart(10)} ${fmt(row.max).padStart(10)}`,
    );
  }
  const median = (name: string) => rows.find((row) => row.name === name)?.median;
  const api = median("sandbox.exec('true')");
  const cli = median("baseline: docker exec <c> true (CLI)");
  if (api && cli) console.log(`\nsandbox.exec / docker exec CLI (median): ${(api / cli).toFixed(2)}×`);
  for (const name of [
    "create → first command done (empty workspace)",
    "sandbox.exec('true')",
    "200 fork+exec inside the sandbox",
  ]) {
    const runc = median(name);
    const gvisor = median(`${name} [gVisor]`);
    if (runc && gvisor) console.log(`${name}: gVisor / runc (median) ${(gvisor / runc).toFixed(2)}×`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  runSandboxBench().then(printTable, (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
