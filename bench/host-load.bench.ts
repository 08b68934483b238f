/**
 * Issue #19's host load: one 2-core host with 20 open sessions (real sandboxes) and 4 commands running
 * in them (two `sleep`s, two busy loops), against the same host idle, in one run. Measured in one more
 * session's sandbox: a `true` command through the sandbox (the persistent shell), and the same call
 * through the one door (server/tools/dispatch.ts: schema, gates, then the sandbox; `shell.exec`,
 * pre-approved as a project's policy can). The whole round trip of a command that does nothing is the
 * overhead Arbor adds to any command. Goal: p95 < 50 ms under load.
 *
 * Every container of this run carries its own instance label; all are removed at the end, whatever
 * happened.
 *
 * Run: npx tsx --import ./testing/server-only/loader.mjs bench/host-load.bench.ts (needs dockerd and the image)
 */
import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import pino from "pino";
import { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import { sessionDispatch } from "@/server/runtime/session-runtime";
import { DockerSandboxProvider } from "@/server/sandbox/docker-provider";
import type { Sandbox } from "@/server/sandbox/types";

const OPEN_SESSIONS = 20;
const RUNNING = [
  "sleep 600",
  "sleep 600",
  "while :; do :; done", // busy loops: each keeps a core as busy as its sandbox's CPU limit allows
  "while :; do :; done",
];
const SANDBOX_RUNS = 60;
const DOOR_RUNS = 30;
const WARM_UP = 5;

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}
const summary = (samples: number[]) =>
  `p50 ${percentile(samples, 0.5).toFixed(1)} ms, p95 ${percentile(samples, 0.95).toFixed(1)} ms`;

async function timed(runs: number, call: () => Promise<void>): Promise<number[]> {
  for (let i = 0; i < WARM_UP; i++) await call();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await call();
    samples.push(performance.now() - started);
  }
  return samples;
}

/** `true` through the sandbox and through the one door, in the probe session. */
async function measure(probe: Sandbox) {
  const door = sessionDispatch({
    sandbox: async () => probe,
    policy: async () => ({
      checkpoints: CheckpointPolicy.parse({ commands: "never-ask" }),
      preApproved: { project: ["shell"] },
    }),
    commandTimeoutMs: 20_000,
  });
  const sandbox = await timed(SANDBOX_RUNS, async () => {
    const result = await probe.exec("true");
    if (result.exitCode !== 0) throw new Error(`true exited ${result.exitCode}`);
  });
  const throughDoor = await timed(DOOR_RUNS, async () => {
    const result = await door.run(
      { tool: "shell.exec", input: { command: "true" } },
      { activeIntent: { id: "INT-BENCH", ownedScope: ["**"] } },
    );
    if (result.status !== "ok") throw new Error(`shell.exec true: ${result.status} ${result.error?.message}`);
  });
  return { sandbox, door: throughDoor };
}

const prefix = `benchload-${randomBytes(3).toString("hex")}`;
const provider = new DockerSandboxProvider({ logger: pino({ level: "silent" }), instance: `${prefix}-inst` });
await provider.ping();
const open: Sandbox[] = [];
try {
  const probe = await provider.create({ sessionId: `${prefix}-probe` });
  const idle = await measure(probe);

  // Opened four at a time (as sessions arrive), not timed.
  for (let i = 0; i < OPEN_SESSIONS; i += 4)
    open.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(4, OPEN_SESSIONS - i) }, (_, k) =>
          provider.create({ sessionId: `${prefix}-s${i + k}` }),
        ),
      )),
    );
  const running = RUNNING.map((command, i) =>
    (open[i] as Sandbox).exec(command, { timeoutMs: 600_000 }).catch(() => undefined),
  );
  await sleep(1_000); // the commands are running
  const loaded = await measure(probe);

  console.log(
    `host: ${OPEN_SESSIONS + 1} sandboxes, then ${RUNNING.length} commands running (${RUNNING.join(", ")})`,
  );
  console.log(
    `idle host    true via sandbox ${summary(idle.sandbox)} | via the one door ${summary(idle.door)}`,
  );
  console.log(
    `loaded host  true via sandbox ${summary(loaded.sandbox)} | via the one door ${summary(loaded.door)}`,
  );
  const ratio = (a: number[], b: number[]) => (percentile(a, 0.95) / percentile(b, 0.95)).toFixed(2);
  console.log(
    `ratio loaded/idle (p95): sandbox ${ratio(loaded.sandbox, idle.sandbox)}, one door ${ratio(loaded.door, idle.door)}`,
  );
  for (const [name, samples] of [
    ["sandbox", loaded.sandbox],
    ["one door", loaded.door],
  ] as const)
    console.log(
      `goal p95 < 50 ms under load (${name}): ${percentile(samples, 0.95) < 50 ? "met" : "NOT met"}`,
    );
  await Promise.all(open.map((sandbox) => sandbox.dispose().catch(() => undefined)));
  await Promise.all(running);
  await probe.dispose();
} finally {
  // Whatever a failure left behind: every container of this run's instance is an orphan now.
  await provider.sweepOrphans(() => new Set<string>()).catch(() => undefined);
}
process.exit(0);
