/**
 * Issue #18's guard for the domain-layer redesign: Arbor's own cost per action cycle, beyond the bare
 * sandbox round trip. Goal: p50 under 30 ms; the redesign must not make it slower.
 *
 * Every part is real: the Orchestrator (engine steps over the folded log), the EventStore on a real
 * SQLite file, the AI SDK talking HTTP to the fake OpenAI-compatible server (answering at once), the
 * command gate, the one door (ToolDispatch) and a `true` command in a real Docker sandbox. The fake
 * server runs in its own process (as a model service would), so its work is not counted as Arbor's.
 * Each run is
 * the task "run `true`": one intention, one action cycle. The bench only watches, through thin
 * wrappers around the ports it hands the Orchestrator (the log, the model, the sandbox provider).
 *
 * One cycle, as timed here: from the moment the append before the cycle's `cycle-started` returned
 * (the engine then folds, decides, builds the act prompt, calls the model, gates the command, appends
 * `cycle-started`, dispatches, runs it in the sandbox, checks the criteria) to the moment the append
 * holding `cycle-judged` returned. Baseline, same run, interleaved with the cycles: the same `true`
 * exec straight on the session's sandbox (no Arbor code around it). For context, also in the same run:
 * a bare HTTP round trip to the fake model server (a one-line chat request, no Arbor code), since the
 * model call sits inside every cycle.
 *
 * Run: npx tsx --import ./testing/server-only/loader.mjs bench/cycle-overhead.bench.ts (needs dockerd and arbor-sandbox:latest).
 * BENCH_CYCLES (default 40) cycles are measured after BENCH_WARMUP (default 3) discarded ones.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import pino from "pino";
import type { EventInput } from "@/server/domain/events/schema";
import { DEFAULT_LIMITS } from "@/server/domain/session/limits";
import type { EventLog } from "@/server/events/log";
import { EventStore } from "@/server/events/store";
import { AiSdkModel } from "@/server/model";
import type { AgentModel } from "@/server/model/types";
import { Orchestrator } from "@/server/orchestrator/orchestrator";
import { createEmptyRepository } from "@/server/projects/git-repository";
import { DockerSandboxProvider } from "@/server/sandbox";
import type { Sandbox, SandboxProvider } from "@/server/sandbox/types";
import { createTestDb, seedSession } from "@/testing/db/test-db";

const CYCLES = Number(process.env.BENCH_CYCLES ?? 40);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
/** Bare `true` execs after each cycle: the baseline gets as many samples as the cycles, and more. */
const BARE_PER_CYCLE = 3;
const GOAL_MS = 30;

interface Span {
  start: number;
  end: number;
}
interface Append extends Span {
  types: string[];
}

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

/** The fake model server in a child process (`npm run fake-model`'s script), and its base URL. */
async function startFakeModelProcess(started: (child: ChildProcess) => void): Promise<{ url: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", "testing/fake-model/cli.ts", "--port", "0"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  started(child);
  const url = await new Promise<string>((resolve, reject) => {
    let printed = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      printed += chunk.toString();
      const found = /listening on (\S+)/.exec(printed);
      if (found?.[1]) resolve(found[1]);
    });
    child.once("exit", (code) =>
      reject(new Error(`the fake model server exited (${code}) before listening`)),
    );
  });
  return { url };
}

/** One plain chat request to the fake server, straight over HTTP: what the model's side costs. */
async function bareModelRoundTrip(baseUrl: string): Promise<number> {
  const start = performance.now();
  const response = await fetch(`${baseUrl}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "fake-model", messages: [{ role: "user", content: "hello" }] }),
  });
  await response.text();
  if (!response.ok) throw new Error(`the fake model server answered ${response.status}`);
  return performance.now() - start;
}

/** The log as the Orchestrator sees it, noting each append (when, what it held) and each read. */
function watchedLog(store: EventStore, appends: Append[], reads: Span[]): EventLog {
  return {
    async append(sessionId: string, bodies: readonly EventInput[]) {
      const start = performance.now();
      const stored = await store.append(sessionId, bodies);
      appends.push({ start, end: performance.now(), types: bodies.map((body) => body.type) });
      return stored;
    },
    async read(sessionId, afterSeq, limit) {
      const start = performance.now();
      try {
        return await store.read(sessionId, afterSeq, limit);
      } finally {
        reads.push({ start, end: performance.now() });
      }
    },
  };
}

/** Notes the span of every call into the sandbox (exec, readFile, writeFile) the engine makes. */
function watchedSandboxes(provider: SandboxProvider, calls: Span[]): SandboxProvider {
  const timed = new Set(["exec", "readFile", "writeFile"]);
  const watch = (sandbox: Sandbox): Sandbox =>
    new Proxy(sandbox, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        if (typeof value !== "function") return value;
        if (!timed.has(String(key))) return value.bind(target);
        return async (...args: unknown[]) => {
          const start = performance.now();
          try {
            return await value.apply(target, args);
          } finally {
            calls.push({ start, end: performance.now() });
          }
        };
      },
    });
  return new Proxy(provider, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== "function") return value;
      if (key === "create") return async (...args: unknown[]) => watch(await value.apply(target, args));
      if (key === "get")
        return async (...args: unknown[]) => {
          const sandbox = await value.apply(target, args);
          return sandbox ? watch(sandbox) : sandbox;
        };
      return value.bind(target);
    },
  });
}

/** Notes the span of every model call (the fake server over HTTP), to show what of a cycle it takes. */
function watchedModel(model: AgentModel, calls: Span[]): AgentModel {
  return new Proxy(model, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        const start = performance.now();
        const result = value.apply(target, args);
        if (!(result instanceof Promise)) return result;
        return result.finally(() => calls.push({ start, end: performance.now() }));
      };
    },
  });
}

/** The one action cycle of a run, located in the appends of that run; null when the run had none. */
function cycleSpan(appends: Append[]): Span | null {
  const started = appends.findIndex((append) => append.types.includes("cycle-started"));
  if (started < 1) return null;
  const judged = appends.findIndex((append, i) => i >= started && append.types.includes("cycle-judged"));
  const before = appends[started - 1];
  const after = appends[judged];
  return before && after ? { start: before.end, end: after.end } : null;
}

const within = (span: Span, calls: Span[]) =>
  calls.filter((call) => call.start >= span.start && call.end <= span.end);
const total = (calls: Span[]) => calls.reduce((sum, call) => sum + (call.end - call.start), 0);

async function main(): Promise<void> {
  const loadBefore = loadavg()[0] ?? 0;
  const silent = pino({ level: "silent" });
  const instance = `benchc-${randomBytes(3).toString("hex")}`;
  const provider = new DockerSandboxProvider({ logger: silent, instance });
  await provider.ping();
  const dir = await mkdtemp(path.join(tmpdir(), "arbor-bench-cycle-"));
  const test = await createTestDb();
  let child: ChildProcess | undefined;
  try {
    const fake = await startFakeModelProcess((started) => {
      child = started;
    });
    const repoPath = path.join(dir, "project.git");
    await createEmptyRepository(repoPath, "Cycle bench");
    const { session } = await seedSession(test.db);
    const appends: Append[] = [];
    const reads: Span[] = [];
    const sandboxCalls: Span[] = [];
    const modelCalls: Span[] = [];
    const orchestrator = new Orchestrator({
      log: watchedLog(new EventStore(test.db), appends, reads),
      model: watchedModel(
        new AiSdkModel({ baseUrl: fake.url, modelName: "fake-model", timeoutMs: 10_000 }),
        modelCalls,
      ),
      sandboxes: watchedSandboxes(provider, sandboxCalls),
      limits: DEFAULT_LIMITS,
      clock: Date.now,
      commandTimeoutMs: 30_000,
      sandboxImage: "arbor-sandbox:latest",
      logger: silent,
      workspaceOf: async () => ({ repoPath, branch: `arbor/session-${session.id}` }),
      runningRuns: async () => [],
    });
    const actor = { userId: "bench", name: "Bench" };

    const cycleMs: number[] = [];
    const sandboxInCycleMs: number[] = [];
    const sandboxCallsPerCycle: number[] = [];
    const modelInCycleMs: number[] = [];
    const storeInCycleMs: number[] = [];
    const bareMs: number[] = [];
    const bareModelMs: number[] = [];
    for (let i = 0; i < WARMUP + CYCLES; i++) {
      appends.length = 0;
      sandboxCalls.length = 0;
      reads.length = 0;
      modelCalls.length = 0;
      const { runId } = await orchestrator.startRun({
        sessionId: session.id,
        task: "run `true`",
        mode: "agent",
        actor,
      });
      await orchestrator.idle();
      const run = await test.db.run.findUniqueOrThrow({ where: { id: runId } });
      const span = cycleSpan(appends);
      if (run.status !== "VERIFIED" || !span)
        throw new Error(`run ${i} ended ${run.status} with ${span ? "a" : "no"} cycle: nothing to time`);
      // The baseline, interleaved so both see the same machine: `true` straight on the same container.
      const sandbox = await provider.get(session.id);
      if (!sandbox) throw new Error("the session's sandbox is gone");
      const bare: number[] = [];
      for (let b = 0; b < BARE_PER_CYCLE; b++) {
        const start = performance.now();
        const result = await sandbox.exec("true");
        bare.push(performance.now() - start);
        if (result.exitCode !== 0) throw new Error(`bare exec failed: ${result.stderr}`);
      }
      const model: number[] = [];
      for (let b = 0; b < BARE_PER_CYCLE; b++) model.push(await bareModelRoundTrip(fake.url));
      if (i < WARMUP) continue;
      bareMs.push(...bare);
      bareModelMs.push(...model);
      cycleMs.push(span.end - span.start);
      const inCycle = within(span, sandboxCalls);
      sandboxInCycleMs.push(total(inCycle));
      sandboxCallsPerCycle.push(inCycle.length);
      modelInCycleMs.push(total(within(span, modelCalls)));
      // The append that opens the window ended at its start, so only appends and reads inside it count.
      storeInCycleMs.push(total(within(span, [...appends, ...reads])));
    }
    await (await provider.get(session.id))?.dispose();

    const p50Bare = percentile(bareMs, 0.5);
    const overhead = cycleMs.map((ms) => ms - p50Bare);
    const overheadNet = cycleMs.map((ms, i) => ms - (sandboxInCycleMs[i] ?? 0));
    const p50BareModel = percentile(bareModelMs, 0.5);
    const overheadNetModel = overhead.map((ms) => ms - p50BareModel);
    const rows: Array<[string, number[]]> = [
      ["total per action cycle", cycleMs],
      ["baseline: bare sandbox round trip, exec('true')", bareMs],
      ["Arbor's own overhead (cycle − bare round trip p50)", overhead],
      ["  of which the model call (fake server over HTTP)", modelInCycleMs],
      ["  of which the event log's appends and reads (SQLite)", storeInCycleMs],
      ["  all sandbox calls inside the cycle", sandboxInCycleMs],
      ["Arbor's overhead net of every sandbox call in it", overheadNet],
      ["baseline: bare model round trip (plain chat request)", bareModelMs],
      ["Arbor's overhead net of bare sandbox and model trips", overheadNetModel],
    ];
    const width = Math.max(...rows.map(([name]) => name.length));
    const fmt = (ms: number) => `${ms.toFixed(1)} ms`.padStart(10);
    console.log(`${"measure".padEnd(width)}  samples        p50        p90`);
    for (const [name, samples] of rows)
      console.log(
        `${name.padEnd(width)}  ${String(samples.length).padStart(7)} ${fmt(percentile(samples, 0.5))} ${fmt(percentile(samples, 0.9))}`,
      );
    console.log(
      `sandbox calls per cycle (p50): ${percentile(sandboxCallsPerCycle, 0.5)}; load average ${loadBefore.toFixed(1)} → ${(loadavg()[0] ?? 0).toFixed(1)}`,
    );
    const p50 = percentile(overhead, 0.5);
    console.log(
      `goal Arbor's own time per cycle beyond the bare round trip p50 < ${GOAL_MS} ms: ${p50.toFixed(1)} ms — ${p50 < GOAL_MS ? "met" : "MISSED"}`,
    );
  } finally {
    await provider.sweepOrphans(() => new Set<string>()).catch(() => undefined);
    child?.kill();
    await test.cleanup();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
