/**
 * Sandbox latency, measured against the real Docker engine: how long a session waits for its first
 * command, and what one `exec` costs compared with the Docker CLI doing the same round trip.
 * Run: npx tsx bench/sandbox.bench.ts (needs dockerd and the image: sandbox-image/build.sh).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import pino from "pino";
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
  try {
    const repoPath = makeRepo(tmp);
    for (const [label, withRepo] of [
      ["create → first command done (empty workspace)", false],
      ["create → first command done (clone small repo)", true],
    ] as const) {
      const samples: number[] = [];
      for (let i = 0; i < CREATE_RUNS; i++) {
        const sessionId = `${prefix}-${withRepo ? "r" : "c"}${i}`;
        let dispose = async () => {};
        samples.push(
          await time(async () => {
            const sandbox = await provider.create({ sessionId, repoPath: withRepo ? repoPath : undefined });
            dispose = () => sandbox.dispose();
            const result = await sandbox.exec("true");
            if (result.exitCode !== 0) throw new Error(`first command failed: ${result.stderr}`);
          }),
        );
        await dispose();
      }
      rows.push(summarise(label, samples));
    }

    const sandbox = await provider.create({ sessionId: `${prefix}-exec` });
    try {
      for (let i = 0; i < WARMUP; i++) await sandbox.exec("true");
      const viaApi: number[] = [];
      for (let i = 0; i < EXEC_RUNS; i++) viaApi.push(await time(() => sandbox.exec("true")));
      rows.push(summarise("sandbox.exec('true')", viaApi));

      const cli = () => {
        const result = spawnSync("docker", ["exec", sandbox.containerName, "true"], { stdio: "ignore" });
        if (result.status !== 0) throw new Error("docker exec failed");
      };
      for (let i = 0; i < WARMUP; i++) cli();
      const viaCli: number[] = [];
      for (let i = 0; i < EXEC_RUNS; i++) viaCli.push(await time(cli));
      rows.push(summarise("baseline: docker exec <c> true (CLI)", viaCli));
    } finally {
      await sandbox.dispose();
    }
  } finally {
    // Whatever a failure left behind: every container of this run counts as an orphan.
    await provider
      .sweepOrphans((ids) => new Set(ids.filter((id) => !id.startsWith(prefix))))
      .catch(() => undefined);
    rmSync(tmp, { recursive: true, force: true });
  }
  return rows;
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
  const api = rows.find((row) => row.name.startsWith("sandbox.exec"));
  const cli = rows.find((row) => row.name.startsWith("baseline"));
  if (api && cli)
    console.log(`\nsandbox.exec / docker exec CLI (median): ${(api.median / cli.median).toFixed(2)}×`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  runSandboxBench().then(printTable, (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
