/**
 * A Node project with ~50 dependencies: time from a session's start (its sandbox created) to "ready to
 * run tests" (the approved setup command `npm ci` done, the agent phase's network applied), through
 * the product's own path (DockerSandboxProvider.create with the project's cache volume, then
 * prepareEnvironment running setup.run through the one door). First sessions with a cold cache
 * (the project's cache volume removed before each) against later sessions with the cache the first
 * filled. Goal: the warm session under 3 s (p50).
 *
 * The network is not measured: the tarballs are fetched from the npm registry once into a directory
 * kept between runs (`$TMPDIR/arbor-bench-npm50`), and served to the sandbox by a plain HTTP server on
 * the Docker bridge's gateway; the lock file's `resolved` URLs point there and the setup phase is
 * Open (the default bridge), so the sandbox reads them straight from this machine.
 * Run: npx tsx --import ./testing/server-only/loader.mjs bench/npm-setup.bench.ts (needs dockerd and the image).
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import Docker from "dockerode";
import pino from "pino";
import type { EventBody } from "@/server/domain/events/schema";
import { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import { EgressSettings } from "@/server/domain/vocabulary/egress";
import { removeCacheVolume } from "@/server/sandbox/dep-cache";
import { DockerSandboxProvider } from "@/server/sandbox/docker-provider";
import { setupCommandHash } from "@/server/setup/detect";
import {
  prepareEnvironment,
  SETUP_INTENT,
  type SessionEnvironment,
} from "@/server/setup/prepare-environment";
import { ToolDispatch } from "@/server/tools/dispatch";

const COLD_RUNS = 3;
const WARM_RUNS = 7;
const GOAL_MS = 3000;

/** 20 direct dependencies, 51 packages installed: small, real, common ones. */
const DEPENDENCIES: Record<string, string> = {
  yargs: "17.7.2",
  chalk: "4.1.2",
  debug: "4.3.7",
  commander: "11.1.0",
  semver: "7.6.3",
  minimist: "1.2.8",
  uuid: "9.0.1",
  dotenv: "16.4.5",
  rimraf: "3.0.2",
  "js-yaml": "4.1.0",
  "is-odd": "3.0.1",
  picocolors: "1.1.1",
  kleur: "4.1.5",
  nanoid: "3.3.7",
  ini: "4.1.3",
  "fast-deep-equal": "3.1.3",
  deepmerge: "4.3.1",
  "escape-string-regexp": "4.0.0",
  camelcase: "6.3.0",
  mime: "3.0.0",
};
const REGISTRY = "https://registry.npmjs.org/";
const SETUP_COMMAND = "npm ci --no-audit --no-fund";

const silent = pino({ level: "silent" });
const git = (args: string[], cwd?: string) => execFileSync("git", args, { cwd, stdio: "pipe" });

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** The lock file (made once with the registry) and every tarball it names, kept between runs. */
function fetchOnce(store: string): { lock: string; packages: number } {
  mkdirSync(path.join(store, "tarballs"), { recursive: true });
  const lockPath = path.join(store, "package-lock.json");
  const manifest = `${JSON.stringify({ name: "bench-fifty", version: "1.0.0", private: true, scripts: { test: "node --test" }, dependencies: DEPENDENCIES }, null, 2)}\n`;
  if (!existsSync(lockPath) || readFileSync(path.join(store, "package.json"), "utf8") !== manifest) {
    writeFileSync(path.join(store, "package.json"), manifest);
    execFileSync(
      "npm",
      [
        "install",
        "--package-lock-only",
        "--omit-lockfile-registry-resolved=false",
        "--ignore-scripts",
        "--no-audit",
        "--no-fund",
      ],
      { cwd: store, stdio: "pipe" },
    );
  }
  const lock = readFileSync(lockPath, "utf8");
  const entries = Object.values(
    (JSON.parse(lock) as { packages: Record<string, { resolved?: string }> }).packages,
  ).filter((entry) => entry.resolved);
  for (const { resolved } of entries) {
    const file = path.join(store, "tarballs", new URL(resolved ?? "").pathname);
    if (existsSync(file)) continue;
    mkdirSync(path.dirname(file), { recursive: true });
    // curl: it trusts the system's CA bundle (these machines intercept TLS).
    execFileSync("curl", ["-sSf", "-m", "60", "-o", file, resolved ?? ""], { stdio: "pipe" });
  }
  return { lock, packages: entries.length };
}

/** Serves the tarballs directory, read-only, on the Docker bridge's gateway address. */
async function serveTarballs(root: string, address: string): Promise<Server> {
  const server = createServer((request, response) => {
    const file = path.join(root, path.normalize(decodeURIComponent(request.url ?? "/").split("?")[0] ?? "/"));
    if (!file.startsWith(root) || !existsSync(file)) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "content-type": "application/octet-stream" }).end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, address, resolve));
  return server;
}

function makeProject(dir: string, lock: string, registryUrl: string): string {
  const bare = path.join(dir, "project.git");
  const work = path.join(dir, "work");
  git(["init", "-q", "--bare", "--initial-branch=main", bare]);
  git(["clone", "-q", bare, work]);
  writeFileSync(
    path.join(work, "package.json"),
    `${JSON.stringify({ name: "bench-fifty", version: "1.0.0", private: true, scripts: { test: "node --test" }, dependencies: DEPENDENCIES }, null, 2)}\n`,
  );
  writeFileSync(path.join(work, "package-lock.json"), lock.replaceAll(REGISTRY, registryUrl));
  writeFileSync(
    path.join(work, "deps.test.js"),
    'require("node:test")("loads", () => { require("yargs"); require("chalk"); require("semver"); });\n',
  );
  git(["add", "."], work);
  git(["-c", "user.name=Bench", "-c", "user.email=bench@example.com", "commit", "-qm", "init"], work);
  git(["push", "-q", "origin", "HEAD:main"], work);
  return bare;
}

/** One session's time to ready, and its parts: the sandbox made (with the clone), the setup command. */
interface Sample {
  total: number;
  create: number;
  setup: number;
}

/**
 * The host's address on Docker's default bridge, where the sandboxes reach the local tarball server.
 * The engine does not always list it in the network's IPAM config (seen with Docker 28 here): then it is
 * the subnet's first address, which is what dockerd gives its bridge.
 */
async function bridgeGateway(docker: Docker): Promise<string> {
  const bridge = (await docker.getNetwork("bridge").inspect()) as {
    IPAM?: { Config?: Array<{ Gateway?: string; Subnet?: string }> };
  };
  const configs = bridge.IPAM?.Config ?? [];
  const listed = configs.find((config) => config.Gateway)?.Gateway;
  if (listed) return listed;
  const subnet = configs
    .map((config) => config.Subnet ?? "")
    .find((cidr) => /^\d+\.\d+\.\d+\.\d+\/\d+$/.test(cidr));
  if (!subnet) throw new Error("the Docker bridge has no gateway address and no IPv4 subnet");
  const octets = (subnet.split("/")[0] ?? "").split(".").map(Number);
  const value =
    (((octets[0] ?? 0) << 24) | ((octets[1] ?? 0) << 16) | ((octets[2] ?? 0) << 8) | (octets[3] ?? 0)) + 1;
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join(".");
}

export async function runNpmSetupBench(): Promise<{ cold: Sample[]; warm: Sample[]; packages: number }> {
  const docker = new Docker();
  const store = path.join(tmpdir(), "arbor-bench-npm50");
  const { lock, packages } = fetchOnce(store);
  const gateway = await bridgeGateway(docker);
  const server = await serveTarballs(path.join(store, "tarballs"), gateway);
  const registryUrl = `http://${gateway}:${(server.address() as AddressInfo).port}/`;
  const tmp = mkdtempSync(path.join(tmpdir(), "arbor-bench-npm-"));
  const prefix = `bench-npm-${randomBytes(3).toString("hex")}`;
  const provider = new DockerSandboxProvider({ logger: silent, docker, instance: prefix });
  const projectId = `${prefix}-project`;
  const repoPath = makeProject(tmp, lock, registryUrl);
  const environment: SessionEnvironment = {
    projectId,
    egress: EgressSettings.parse({ setup: { mode: "open" }, agent: { mode: "off" } }),
    setup: { command: SETUP_COMMAND, binding: setupCommandHash(SETUP_COMMAND), approvedBy: "bench" },
    openSecrets: async () => ({ env: {}, unreadable: [] }),
  };

  /** One session: its sandbox made and prepared; ms to ready (and its parts), after checking it is ready. */
  async function session(name: string): Promise<Sample> {
    const sessionId = `${prefix}-${name}`;
    const events: EventBody[] = [];
    const started = performance.now();
    const box = await provider.create({
      sessionId,
      repoPath,
      branch: `arbor/${name}`,
      egress: environment.egress,
      cacheProjectId: projectId,
    });
    const created = performance.now() - started;
    try {
      const dispatch = new ToolDispatch({
        sandbox: async () => box,
        policy: async () => ({ checkpoints: CheckpointPolicy.parse({ commands: "never-ask" }) }),
        timeoutMs: 300_000,
      });
      await prepareEnvironment({
        runId: "bench",
        sessionId,
        fresh: true,
        environment,
        sandboxes: provider,
        append: async (bodies) => {
          events.push(...bodies);
        },
        runSetup: (command, binding, approver, env) =>
          dispatch.run(
            { tool: "setup.run", input: { command } },
            { activeIntent: SETUP_INTENT, approval: { binding, approver }, env },
          ),
      });
      const elapsed = performance.now() - started;
      const ran = events.find((event) => event.type === "setup-ran");
      if (ran?.type !== "setup-ran" || ran.status !== "ok")
        throw new Error(`setup did not succeed: ${JSON.stringify(ran)}`);
      // Ready means the tests run: checked, not timed.
      const tests = await box.exec("npm test --silent", { timeoutMs: 60_000 });
      if (tests.exitCode !== 0)
        throw new Error(`npm test failed after setup: ${tests.stdout}${tests.stderr}`);
      return { total: elapsed, create: created, setup: ran.durationMs };
    } finally {
      await box.dispose();
    }
  }

  const cold: Sample[] = [];
  const warm: Sample[] = [];
  try {
    for (let i = 0; i < COLD_RUNS; i++) {
      await removeCacheVolume(docker, prefix, projectId);
      cold.push(await session(`cold${i}`));
    }
    for (let i = 0; i < WARM_RUNS; i++) warm.push(await session(`warm${i}`));
  } finally {
    await removeCacheVolume(docker, prefix, projectId).catch(() => undefined);
    await provider.sweepOrphans(() => new Set()).catch(() => undefined);
    await new Promise((resolve) => server.close(resolve));
    rmSync(tmp, { recursive: true, force: true });
  }
  return { cold, warm, packages };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  runNpmSetupBench().then(
    ({ cold, warm, packages }) => {
      const fmt = (samples: Sample[]) => {
        const p50 = (part: keyof Sample) => median(samples.map((sample) => sample[part])).toFixed(0);
        const all = samples.map((sample) => sample.total.toFixed(0)).join(", ");
        return `p50 ${p50("total")} ms (${all}); of which sandbox made ${p50("create")} ms, npm ci ${p50("setup")} ms`;
      };
      console.log(`session start → ready to run tests, npm ci of ${packages} packages from a local server:`);
      console.log(`  first session, cold cache (${cold.length} runs): ${fmt(cold)}`);
      console.log(`  later session, warm cache (${warm.length} runs): ${fmt(warm)}`);
      const p50 = median(warm.map((sample) => sample.total));
      console.log(
        `  warm / cold (p50): ${(p50 / median(cold.map((sample) => sample.total))).toFixed(2)}×; goal warm p50 < ${GOAL_MS} ms: ${p50 < GOAL_MS ? "met" : "missed"}`,
      );
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
