/**
 * Sandbox fast paths, measured against the real Docker engine in one run, each next to its baseline:
 * - session ready: warm-pool claim → first command done, vs cold create → first command done;
 * - command overhead: `exec('true')` through the persistent shell, vs the same through the Engine
 *   API's exec (the slow path), vs the `docker exec` CLI.
 * Goals (issue #5): warm session ready p50 < 100 ms; command overhead p50 < 5 ms.
 * Run: npx tsx --import ./testing/server-only/loader.mjs bench/sandbox-fast.bench.ts (needs dockerd and the image: sandbox-image/build.sh).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import pino from "pino";
import { DockerSandboxProvider } from "@/server/sandbox/docker-provider";
import type { Sandbox } from "@/server/sandbox/types";

const READY_RUNS = Number(process.env.BENCH_READY_RUNS ?? 15);
const EXEC_RUNS = Number(process.env.BENCH_EXEC_RUNS ?? 100);
const WARMUP = 5;

export interface Row {
  name: string;
  runs: number;
  p50: number;
  p95: number;
  min: number;
  max: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? 0;
}

function summarise(name: string, samples: number[]): Row {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    name,
    runs: samples.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    min: sorted[0] ?? 0,
    max: sorted.at(-1) ?? 0,
  };
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

async function firstCommand(sandbox: Sandbox): Promise<void> {
  const result = await sandbox.exec("true");
  if (result.exitCode !== 0) throw new Error(`first command failed: ${result.stderr}`);
}

export async function runFastSandboxBench(): Promise<Row[]> {
  const silent = pino({ level: "silent" });
  const prefix = `benchf-${randomBytes(3).toString("hex")}`;
  const instance = `${prefix}-inst`;
  const cold = new DockerSandboxProvider({ logger: silent, instance });
  const coldNoShell = new DockerSandboxProvider({ logger: silent, instance, persistentShell: false });
  const warm = new DockerSandboxProvider({ logger: silent, instance, poolSize: 2 });
  await cold.ping();
  const tmp = mkdtempSync(path.join(tmpdir(), "arbor-benchf-"));
  const rows: Row[] = [];
  let n = 0;
  const session = () => `${prefix}-${n++}`;
  try {
    const repoPath = makeRepo(tmp);
    await warm.fillPool();

    for (const withRepo of [false, true]) {
      const suffix = withRepo ? " (clone small repo)" : " (empty workspace)";
      const cases: Array<[string, () => Promise<Sandbox>]> = [
        [
          `cold create → first command, docker exec${suffix}`,
          () => coldNoShell.create({ sessionId: session(), repoPath: withRepo ? repoPath : undefined }),
        ],
        [
          `cold create → first command, with shell${suffix}`,
          () => cold.create({ sessionId: session(), repoPath: withRepo ? repoPath : undefined }),
        ],
        [
          `warm pool claim → first command${suffix}`,
          () => warm.create({ sessionId: session(), repoPath: withRepo ? repoPath : undefined }),
        ],
      ];
      for (const [name, make] of cases) {
        const samples: number[] = [];
        for (let i = 0; i < READY_RUNS; i++) {
          // The pool refills between sessions (as it does between real users); not part of the timing.
          await warm.fillPool();
          let sandbox: Sandbox | undefined;
          samples.push(
            await time(async () => {
              sandbox = await make();
              await firstCommand(sandbox);
            }),
          );
          await sandbox?.dispose();
        }
        rows.push(summarise(name, samples));
      }
    }

    const sessionId = session();
    const sandbox = await cold.create({ sessionId });
    const plain = await coldNoShell.get(sessionId);
    if (!plain) throw new Error("sandbox vanished");
    try {
      const measure = async (name: string, fn: () => Promise<unknown> | unknown) => {
        for (let i = 0; i < WARMUP; i++) await fn();
        const samples: number[] = [];
        for (let i = 0; i < EXEC_RUNS; i++) samples.push(await time(fn));
        rows.push(summarise(name, samples));
      };
      await measure("exec('true') via persistent shell", () => sandbox.exec("true"));
      await measure("exec('true') via Engine API exec (slow path)", () => plain.exec("true"));
      await measure("baseline: docker exec <c> true (CLI)", () => {
        const result = spawnSync("docker", ["exec", sandbox.containerName, "true"], { stdio: "ignore" });
        if (result.status !== 0) throw new Error("docker exec failed");
      });
      await measure("readFile via persistent shell", () => sandbox.readFile("/etc/hostname"));
      await measure("readFile via Engine API exec (slow path)", () => plain.readFile("/etc/hostname"));
    } finally {
      await sandbox.dispose();
    }
  } finally {
    await warm.close().catch(() => undefined);
    // Whatever a failure left behind: every container of this run's instance is an orphan.
    await cold.sweepOrphans(() => new Set<string>()).catch(() => undefined);
    rmSync(tmp, { recursive: true, force: true });
  }
  return rows;
}

function printReport(rows: Row[]): void {
  const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
  const width = Math.max(...rows.map((row) => row.name.length));
  console.log(`${"measure".padEnd(width)}  runs        p50        p95        min        max`);
  for (const row of rows) {
    console.log(
      `${row.name.padEnd(width)}  ${String(row.runs).padStart(4)} ${[row.p50, row.p95, row.min, row.max]
        .map((v) => fmt(v).padStart(10))
        .join(" ")}`,
    );
  }
  const find = (prefix: string) => rows.find((row) => row.name.startsWith(prefix));
  const ratio = (label: string, a?: Row, b?: Row) => {
    if (a && b)
      console.log(
        `${label}: p50 ${(a.p50 / b.p50).toFixed(2)}× (${fmt(a.p50)} vs ${fmt(b.p50)}), p95 ${(a.p95 / b.p95).toFixed(2)}×`,
      );
  };
  console.log("");
  for (const suffix of ["(empty workspace)", "(clone small repo)"]) {
    const warm = rows.find((r) => r.name.startsWith("warm pool") && r.name.endsWith(suffix));
    const coldExec = rows.find(
      (r) => r.name.startsWith("cold create → first command, docker exec") && r.name.endsWith(suffix),
    );
    ratio(`warm / cold ${suffix}`, warm, coldExec);
  }
  const shell = find("exec('true') via persistent shell");
  ratio("persistent shell / Engine API exec", shell, find("exec('true') via Engine API"));
  ratio("persistent shell / docker exec CLI", shell, find("baseline: docker exec"));
  const warmEmpty = rows.find((r) => r.name.startsWith("warm pool") && r.name.endsWith("(empty workspace)"));
  const goal = (label: string, value: number | undefined, limit: number) =>
    console.log(
      `goal ${label} p50 < ${limit} ms: ${value === undefined ? "not measured" : `${fmt(value)} — ${value < limit ? "met" : "MISSED"}`}`,
    );
  console.log("");
  goal("warm session ready (empty workspace)", warmEmpty?.p50, 100);
  goal("command overhead (exec 'true' via persistent shell)", shell?.p50, 5);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  runFastSandboxBench().then(printReport, (error: unknown) => {
    console.error(error instanceof Error ? error.stack : error);
    process.exit(1);
  });
}
