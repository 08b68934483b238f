import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { env } from "@/server/env";
import { EventStore } from "@/server/events/store";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { createEmptyRepository } from "@/server/projects/git-repository";
import { DockerSandboxProvider } from "@/server/sandbox";
import {
  fold,
  lineProblems,
  logProblems,
  outcomeOf,
  projectionProblems,
  rerunProblems,
} from "@/testing/crash-soak/soak-run";
import { createTestDb, seedSession } from "@/testing/db/test-db";

/**
 * The crash soak (after SQLite's own crash tests): the orchestrator with the real SQLite store and
 * the real Docker sandbox runs a scripted run — a decomposition, two writes that take seconds and a
 * read — in a child process that is `kill -9`-ed at a random moment and restarted, round after round
 * (ARBOR_SOAK_ROUNDS, 20 by default). After each round and at the end: sequence numbers dense, no
 * event twice, projections equal to the fold, no write run twice without the scripted person's answer,
 * and every run ends as the uninterrupted one did.
 */

const ROUNDS = env.ARBOR_SOAK_ROUNDS;
const DRIVER = path.resolve("testing/crash-soak/driver.ts");
/** The driver imports modules marked `server-only`: resolve the marker as Next.js's server bundles do. */
const SERVER_ONLY_LOADER = path.resolve("testing/server-only/loader.mjs");

let db: PrismaClient;
let dbFile = "";
let cleanupDb: () => Promise<void> = async () => undefined;
let sessionId = "";
let repoDir = "";
let repoPath = "";
const sandboxes = new DockerSandboxProvider();

beforeAll(async () => {
  const test = await createTestDb();
  db = test.db;
  dbFile = test.file;
  cleanupDb = test.cleanup;
  sessionId = (await seedSession(db)).session.id;
  repoDir = await mkdtemp(path.join(tmpdir(), "arbor-soak-"));
  repoPath = path.join(repoDir, "project.git");
  await createEmptyRepository(repoPath, "soak");
});

afterAll(async () => {
  await (await sandboxes.get(sessionId))?.dispose();
  await cleanupDb();
  await rm(repoDir, { recursive: true, force: true });
});

interface Driver {
  child: ChildProcess;
  exited: Promise<number | null>;
  /** When the process had loaded its modules and opened the database (performance.now()). */
  booted: Promise<number>;
  driving: Promise<void>;
}

function startDriver(runs: number): Driver {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "--import", SERVER_ONLY_LOADER, DRIVER, dbFile, sessionId, repoPath, String(runs)],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stderr = "";
  const booted = new Promise<number>((resolve) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("booted")) resolve(performance.now());
    });
    child.on("exit", () => resolve(performance.now()));
  });
  const driving = new Promise<void>((resolve) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("driving")) resolve();
    });
    child.on("exit", () => resolve());
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) =>
    child.on("exit", (code) => {
      if (code !== 0 && code !== null) console.error(stderr.slice(-4_000));
      resolve(code);
    }),
  );
  return { child, exited, booted, driving };
}

async function lastSeq(): Promise<number> {
  return (await db.event.aggregate({ where: { sessionId }, _max: { seq: true } }))._max.seq ?? 0;
}

async function check(): Promise<{ events: number }> {
  const events = await new EventStore(db).read(sessionId);
  const view = fold(events);
  const rows = {
    runs: await db.run.findMany({ where: { sessionId }, select: { id: true, status: true } }),
    intentions: await db.intention.findMany({
      where: { run: { sessionId } },
      select: { id: true, status: true },
    }),
    approvals: await db.approval.findMany({ where: { sessionId }, select: { id: true, status: true } }),
    cycles: await db.cycle.findMany({
      where: { intention: { run: { sessionId } } },
      select: { id: true, judgment: true },
    }),
  };
  expect(logProblems(events)).toEqual([]);
  expect(projectionProblems(view, rows)).toEqual([]);
  expect(rerunProblems(view).problems).toEqual([]);
  return { events: events.length };
}

const percentile = (values: number[], p: number) => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};

const ms = (values: number[], p: number) => `${Math.round(percentile(values, p))} ms`;

it(`survives ${ROUNDS} kill -9s at random moments with nothing lost, doubled or re-run unasked`, async () => {
  // The uninterrupted run: the outcome every interrupted one must reach.
  const baseline = startDriver(1);
  expect(await baseline.exited).toBe(0);
  const first = fold(await new EventStore(db).read(sessionId));
  const baselineRunId = first.runOrder[0] ?? "";
  const expected = outcomeOf(first, baselineRunId, 1);
  expect(first.runs[baselineRunId]?.status).toBe("VERIFIED");
  await check();

  const recoveries: number[] = [];
  const restarts: number[] = [];
  let kills = 0;
  for (let round = 1; round <= ROUNDS; round++) {
    const resuming = (await db.run.count({ where: { sessionId, status: "RUNNING" } })) > 0;
    const before = await lastSeq();
    const spawnedAt = performance.now();
    const driver = startDriver(Number.MAX_SAFE_INTEGER);
    // Recovery: from the process being up (modules loaded, database open) to the resumed run's first
    // new event; restart: from the spawn, loading included.
    if (resuming)
      void (async () => {
        while (driver.child.exitCode === null && (await lastSeq()) === before)
          await new Promise((resolve) => setTimeout(resolve, 25));
        if ((await lastSeq()) === before) return;
        const now = performance.now();
        recoveries.push(now - (await driver.booted));
        restarts.push(now - spawnedAt);
      })();
    // The kill lands anywhere once the driver has started or resumed the run (the second write sleeps
    // 6 s, so a restart often finds it still running and must end it).
    await driver.driving;
    const delay = Math.random() * 3_500;
    const ended = await Promise.race([
      driver.exited.then(() => true),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), delay)),
    ]);
    if (!ended) {
      driver.child.kill("SIGKILL");
      kills++;
      await driver.exited;
    }
    await check();
  }

  // The last run finishes without a kill; then every run must have ended as the baseline did.
  const runs = await db.run.count({ where: { sessionId } });
  while ((await db.run.count({ where: { sessionId, status: "RUNNING" } })) > 0) {
    const finisher = startDriver(runs);
    expect(await finisher.exited).toBe(0);
  }
  const { events } = await check();
  const view = fold(await new EventStore(db).read(sessionId));
  view.runOrder.forEach((runId, index) => {
    expect(outcomeOf(view, runId, index + 1)).toBe(expected);
  });
  const { personReruns, readReruns } = rerunProblems(view);
  // The file as the sandbox has it now, read by the person's own inspection (not through a run).
  const box = await sandboxes.get(sessionId);
  const lines = lineProblems(view, (await box?.readFile("soak.txt")) ?? "");
  expect(lines.problems).toEqual([]);
  console.log(
    [
      `crash soak: ${ROUNDS} rounds, ${kills} kill -9s, ${view.runOrder.length} runs, ${events} events`,
      `re-run commands: ${readReruns} read-only (automatically), ${personReruns} writes (after the person's answer); leftover processes found and ended: ${lines.leftoversEnded}`,
      `recovery (process up to the resumed run's first new event): p50 ${ms(recoveries, 50)}, p95 ${ms(recoveries, 95)} over ${recoveries.length} resumes`,
      `restart (spawn, module loading included, to that event): p50 ${ms(restarts, 50)}, p95 ${ms(restarts, 95)}`,
    ].join("\n"),
  );
  expect(kills).toBeGreaterThan(0);
}, 600_000);
