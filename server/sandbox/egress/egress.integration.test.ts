import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { networkInterfaces, tmpdir } from "node:os";
import path from "node:path";
import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventBody } from "@/server/domain/events/schema";
import { CheckpointPolicy } from "@/server/domain/policy/checkpoints";
import { type EgressSettings, EgressSettings as Settings } from "@/server/domain/vocabulary/egress";
import { rootFiles } from "@/server/projects/git-repository";
import { SessionWorkspace } from "@/server/riva/perform/session-workspace";
import { detectSetupCommand, setupCommandHash } from "@/server/setup/detect";
import {
  environmentPreparer,
  prepareEnvironment,
  SETUP_INTENT,
  type SessionEnvironment,
} from "@/server/setup/prepare-environment";
import { ToolDispatch } from "@/server/tools/dispatch";
import { cleanUp, git, PREFIX, silent, tempDirs, testProvider } from "@/testing/sandbox/docker";
import { removeCacheVolume } from "../dep-cache";
import { DockerSandboxProvider } from "../docker-provider";
import { buildImage, ProjectImageBuildError } from "../project-image/build-image";
import { buildNetworkFor } from "../project-image/build-network";
import type { Sandbox } from "../types";
import { type EgressConnection, EgressProxy } from "./egress-proxy";

/**
 * Egress through a real squid on a real internal Docker network. One proxy for the whole file.
 * Needs root (iptables) and Debian's squid (scripts/lib.sh installs it).
 */
let proxy: EgressProxy;
let provider: DockerSandboxProvider;
let server: Server;
let serverPort = 0;
const proxyState = mkdtempSync(path.join(tmpdir(), "arbor-egress-state-"));
const connections: EgressConnection[] = [];
/** This machine's first non-loopback IPv4 address: where the test server is reached. */
const hostAddress =
  Object.values(networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .find((entry) => entry.family === "IPv4" && !entry.internal && !entry.address.startsWith("172."))
    ?.address ?? "127.0.0.1";

const registries: EgressSettings = Settings.parse({ setup: { mode: "registries" }, agent: { mode: "off" } });

beforeAll(async () => {
  // Builds the image if needed (the shared helper's provider is only used for that).
  testProvider("egress-image");
  server = createServer((_, response) => response.end("reached the host\n"));
  await new Promise<void>((resolve) => server.listen(0, "0.0.0.0", resolve));
  serverPort = (server.address() as AddressInfo).port;
  proxy = new EgressProxy({
    docker: new (await import("dockerode")).default(),
    instance: `${PREFIX}-egress`,
    stateDir: proxyState,
    port: 20_000 + Math.floor(Math.random() * 20_000),
    upstream: null,
    log: silent,
    onConnection: (connection) => connections.push(connection),
  });
  provider = new DockerSandboxProvider({ logger: silent, instance: `${PREFIX}-egress`, egress: proxy });
}, 600_000);

afterAll(async () => {
  await cleanUp(provider);
  await proxy?.destroy();
  rmSync(proxyState, { recursive: true, force: true });
  await new Promise((resolve) => server?.close(resolve));
});

/** The proxy's log is read every 200 ms: wait until a matching connection arrives. */
async function connectionTo(sessionId: string, host: string): Promise<EgressConnection> {
  let found: EgressConnection | undefined;
  await expect
    .poll(
      () => {
        proxy.readLog();
        found = connections.find((c) => c.sessionId === sessionId && c.host === host);
        return found !== undefined;
      },
      { timeout: 10_000 },
    )
    .toBe(true);
  return found as EgressConnection;
}

describe("egress through the proxy", () => {
  let box: Sandbox;
  const sessionId = `${PREFIX}-egress-npm`;

  beforeAll(async () => {
    box = await provider.create({ sessionId, egress: registries });
  });
  afterAll(async () => box?.dispose());

  it("installs a package from the npm registry with Package registries only", async () => {
    const applied = await provider.setEgressPhase(sessionId, "setup", registries);
    expect(applied).toEqual({
      phase: "setup",
      requested: "registries",
      applied: "registries",
      problem: null,
    });
    const started = Date.now();
    const install = await box.exec(
      "npm init -y >/dev/null && npm install is-odd@3.0.1 --no-audit --no-fund --loglevel=error && node -e \"console.log(require('is-odd')(3))\"",
      { timeoutMs: 120_000 },
    );
    console.log(`npm install is-odd through the proxy: ${Date.now() - started} ms`);
    expect(install.stderr).toBe("");
    expect(install.exitCode).toBe(0);
    expect(install.stdout.trim().split("\n").at(-1)).toBe("true");
    const seen = await connectionTo(sessionId, "registry.npmjs.org");
    expect(seen).toMatchObject({ phase: "setup", method: "CONNECT", port: 443, allowed: true, reason: null });
    expect(seen.bytesIn).toBeGreaterThan(1000);
  });

  it("refuses a host not listed, a raw IP and a listed name that resolves to this machine, and records each", async () => {
    const notListed = await box.exec(
      `curl -sS -m 10 -o /dev/null -w '%{http_code}' http://vm:${serverPort}/`,
    );
    expect(notListed.stdout).toBe("403");
    expect(await connectionTo(sessionId, "vm")).toMatchObject({
      allowed: false,
      reason: "not-listed",
      port: serverPort,
    });

    const rawIp = await box.exec(
      `curl -sS -m 10 -o /dev/null -w '%{http_code}' http://${hostAddress}:${serverPort}/`,
    );
    expect(rawIp.stdout).toBe("403");
    expect(await connectionTo(sessionId, hostAddress)).toMatchObject({ allowed: false, reason: "raw-ip" });

    const tunnel = await box.exec("curl -sS -m 10 https://1.1.1.1/ 2>&1");
    expect(tunnel.exitCode).not.toBe(0);
    expect(await connectionTo(sessionId, "1.1.1.1")).toMatchObject({
      method: "CONNECT",
      allowed: false,
      reason: "raw-ip",
    });

    // "vm" resolves to 127.0.0.1 on this machine: allowed by name, refused by its address.
    const custom = Settings.parse({ setup: { mode: "custom" }, allowList: [`vm:${serverPort}`] });
    await provider.setEgressPhase(sessionId, "setup", custom);
    connections.length = 0;
    const loopback = await box.exec(`curl -sS -m 10 -o /dev/null -w '%{http_code}' http://vm:${serverPort}/`);
    expect(loopback.stdout).toBe("403");
    expect(await connectionTo(sessionId, "vm")).toMatchObject({ allowed: false, reason: "private-address" });
    await provider.setEgressPhase(sessionId, "setup", registries);
  });

  it("gives the sandbox no DNS and no route but the proxy's port", async () => {
    const dns = await box.exec("getent hosts registry.npmjs.org", { timeoutMs: 30_000 });
    expect(dns.exitCode).not.toBe(0);
    expect(dns.stdout).toBe("");
    const direct = await box.exec("curl -sS -m 8 --noproxy '*' https://registry.npmjs.org/ 2>&1");
    expect(direct.exitCode).not.toBe(0);
    // The host's other ports (Arbor, Docker's API, the database…) are dropped at the gateway.
    const gateway = new URL(proxy.url).hostname;
    const host = await box.exec(`curl -sS -m 5 --noproxy '*' http://${gateway}:${serverPort}/ 2>&1`);
    expect(host.exitCode).not.toBe(0);
    expect(host.stdout).not.toContain("reached the host");
  });

  it("lets nothing leave with Off: the container has no network at all", async () => {
    const applied = await provider.setEgressPhase(sessionId, "agent", registries);
    expect(applied).toMatchObject({ phase: "agent", requested: "off", applied: "off", problem: null });
    connections.length = 0;
    const links = await box.exec("cat /proc/net/dev | tail -n +3 | cut -d: -f1 | tr -d ' '");
    expect(links.stdout.trim()).toBe("lo");
    const fetch = await box.exec("curl -sS -m 8 https://registry.npmjs.org/ 2>&1");
    expect(fetch.exitCode).not.toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 500));
    proxy.readLog();
    expect(connections.filter((c) => c.allowed)).toEqual([]);
  });
});

/** A bare repository whose main holds package.json and the lock file npm made for is-odd@3.0.1. */
function nodeProject(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "arbor-setup-"));
  tempDirs.push(dir);
  const bare = path.join(dir, "project.git");
  const work = path.join(dir, "work");
  git(["init", "-q", "--bare", "--initial-branch=main", bare]);
  git(["clone", "-q", bare, work]);
  writeFileSync(
    path.join(work, "package.json"),
    JSON.stringify({
      name: "setup-test",
      version: "1.0.0",
      private: true,
      dependencies: { "is-odd": "3.0.1" },
    }),
  );
  // With the tarballs' URLs in the lock, as most projects have them (this machine's npm omits them).
  const lockOnly = ["--package-lock-only", "--omit-lockfile-registry-resolved=false", "--ignore-scripts"];
  execFileSync("npm", ["install", ...lockOnly, "--no-audit", "--no-fund"], {
    cwd: work,
    stdio: "pipe",
  });
  git(["add", "package.json", "package-lock.json"], work);
  git(["-c", "user.name=Test", "-c", "user.email=test@example.com", "commit", "-q", "-m", "init"], work);
  git(["push", "-q", "origin", "HEAD:main"], work);
  return bare;
}

describe("setup with cached dependencies", () => {
  const projectId = `${PREFIX}-setup-project`;
  let repoPath: string;
  afterAll(async () =>
    removeCacheVolume(new (await import("dockerode")).default(), `${PREFIX}-egress`, projectId),
  );

  /** One session: a new sandbox of the project, prepared as a session's workspace is. */
  async function session(name: string, environment: SessionEnvironment) {
    const sessionId = `${PREFIX}-${name}`;
    const box = await provider.create({
      sessionId,
      repoPath,
      branch: `arbor/${name}`,
      egress: environment.egress,
      cacheProjectId: environment.projectId,
    });
    const dispatch = new ToolDispatch({
      sandbox: async () => box,
      policy: async () => ({ checkpoints: CheckpointPolicy.parse({ commands: "never-ask" }) }),
      timeoutMs: 20_000,
    });
    const events: EventBody[] = [];
    const started = Date.now();
    await prepareEnvironment({
      runId: "run-1",
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
    return { box, dispatch, events, setupMs: Date.now() - started };
  }

  it("detects npm ci, runs it once approved with the setup secrets, and the second session installs from the cache", async () => {
    repoPath = nodeProject();
    const detected = detectSetupCommand(await rootFiles(repoPath));
    expect(detected).toBe("npm ci");
    const command =
      'npm ci --no-audit --no-fund && test "$SETUP_TOKEN" = "s3cret-for-setup" && echo secret-seen';
    const environment = (mode: "registries" | "off"): SessionEnvironment => ({
      projectId,
      egress: Settings.parse({ setup: { mode }, agent: { mode: "off" } }),
      setup: { command, binding: setupCommandHash(command), approvedBy: "Ada" },
      openSecrets: async () => ({ env: { SETUP_TOKEN: "s3cret-for-setup" }, unreadable: [] }),
    });

    const first = await session("setup-1", environment("registries"));
    const ran = first.events.find((event) => event.type === "setup-ran");
    expect(ran).toMatchObject({ status: "ok", exitCode: 0 });
    expect(ran?.type === "setup-ran" && ran.output).toContain("secret-seen");
    expect(first.events.filter((event) => event.type === "egress-phase-set")).toMatchObject([
      { phase: "setup", applied: "registries" },
      { phase: "agent", applied: "off" },
    ]);
    // The agent phase has neither the secret nor a network.
    expect((await first.box.exec("printenv SETUP_TOKEN")).exitCode).not.toBe(0);
    expect((await first.box.exec("node -e \"console.log(require('is-odd')(7))\"")).stdout.trim()).toBe(
      "true",
    );
    // The approval is bound to the text: another command with the same approval does not run.
    const edited = await first.dispatch.run(
      { tool: "setup.run", input: { command: `${command} && touch /workspace/edited` } },
      {
        activeIntent: SETUP_INTENT,
        approval: { binding: setupCommandHash(command), approver: "Ada" },
        env: {},
      },
    );
    expect(edited.status).toBe("ask");
    expect((await first.box.exec("test -e /workspace/edited")).exitCode).not.toBe(0);

    // Second session: no network at all in its setup phase, so npm ci can only succeed from the cache.
    const second = await session("setup-2", environment("off"));
    const secondRan = second.events.find((event) => event.type === "setup-ran");
    if (secondRan?.type === "setup-ran" && secondRan.status !== "ok") console.log(secondRan.output);
    expect(secondRan).toMatchObject({ status: "ok", exitCode: 0 });
    console.log(
      `setup (npm ci of is-odd): first session ${first.setupMs} ms (cold cache, through the proxy), second ${second.setupMs} ms (warm cache, no network)`,
    );
    await Promise.all([first.box.dispose(), second.box.dispose()]);
  });

  it("records an unapproved setup command as skipped, and a failing one with its output", async () => {
    const base = {
      projectId,
      egress: Settings.parse({ setup: { mode: "off" }, agent: { mode: "off" } }),
      openSecrets: async () => ({ env: {}, unreadable: [] }),
    };
    const skipped = await session("setup-3", {
      ...base,
      setup: { command: "npm ci", binding: null, approvedBy: null },
    });
    expect(skipped.events.find((event) => event.type === "setup-ran")).toMatchObject({ status: "skipped" });
    expect((await skipped.box.exec("test -d node_modules")).exitCode).not.toBe(0);
    const failing = "echo about to fail && exit 3";
    const failed = await session("setup-4", {
      ...base,
      setup: { command: failing, binding: setupCommandHash(failing), approvedBy: "Ada" },
    });
    expect(failed.events.find((event) => event.type === "setup-ran")).toMatchObject({
      status: "failed",
      exitCode: 3,
      output: expect.stringContaining("about to fail"),
    });
    // The session goes on.
    expect((await failed.box.exec("echo usable")).stdout).toBe("usable\n");
    await Promise.all([skipped.box.dispose(), failed.box.dispose()]);
  });
});

describe("a gVisor session's setup", () => {
  const projectId = `${PREFIX}-gvisor-project`;
  afterAll(async () => removeCacheVolume(new Docker(), `${PREFIX}-egress`, projectId));

  it("installs through the proxy in a runc container, records its connections on the session, and hands the gVisor sandbox the result", async () => {
    const repo = nodeProject();
    const sessionId = `${PREFIX}-gvisor-setup`;
    const command = "npm ci --no-audit --no-fund && echo installed";
    const environment: SessionEnvironment = {
      projectId,
      egress: Settings.parse({ setup: { mode: "registries" }, agent: { mode: "off" } }),
      setup: { command, binding: setupCommandHash(command), approvedBy: "Ada" },
      openSecrets: async () => ({ env: {}, unreadable: [] }),
    };
    const events: EventBody[] = [];
    const workspace = new SessionWorkspace(
      {
        sandboxes: provider,
        commandTimeoutMs: 120_000,
        logger: silent,
        environmentOf: async () => environment,
        workspaceOf: async () => ({
          repoPath: repo,
          branch: "arbor/gvisor-setup",
          sandboxChoice: async () => ({ runtime: "runsc" }),
        }),
      },
      sessionId,
      async () => undefined,
      environmentPreparer({
        runId: "run-gvisor",
        sessionId,
        sandboxes: provider,
        append: async (bodies) => {
          events.push(...bodies);
        },
        policy: async () => ({ checkpoints: CheckpointPolicy.parse({ commands: "never-ask" }) }),
        timeoutMs: 120_000,
      }),
    );
    const box = await workspace.box();
    try {
      expect(box.runtime).toBe("runsc");
      expect(events.find((event) => event.type === "setup-ran")).toMatchObject({
        status: "ok",
        runner: "runc-for-gvisor",
      });
      expect(events.filter((event) => event.type === "egress-phase-set")).toMatchObject([
        { phase: "setup", applied: "registries" },
        { phase: "agent", applied: "off" },
      ]);
      // The runc container's connections are this session's.
      expect(await connectionTo(sessionId, "registry.npmjs.org")).toMatchObject({
        phase: "setup",
        allowed: true,
      });
      // The installed packages are in the gVisor sandbox's workspace, and it has no network.
      expect((await box.exec("node -e \"console.log(require('is-odd')(7))\"")).stdout.trim()).toBe("true");
      expect((await box.exec("cat /proc/net/dev | grep -c eth")).stdout.trim()).toBe("0");
      // The setup container is gone, and so is its rule in the proxy.
      expect(await provider.get(`${sessionId}.setup`)).toBeNull();
      expect(readFileSync(path.join(proxyState, "rules.json"), "utf8")).not.toContain(sessionId);
    } finally {
      await box.dispose();
    }
  });
});

describe("an upstream proxy", () => {
  let tinyproxy: ChildProcess | undefined;
  let upstreamEgress: EgressProxy | undefined;
  let upstreamProvider: DockerSandboxProvider | undefined;
  const upstreamState = mkdtempSync(path.join(tmpdir(), "arbor-egress-state-"));
  afterAll(async () => {
    await cleanUp(upstreamProvider);
    await upstreamEgress?.destroy();
    rmSync(upstreamState, { recursive: true, force: true });
    tinyproxy?.kill();
  });

  it("sends everything through the host's proxy when one is set (a local tinyproxy)", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "arbor-tinyproxy-"));
    tempDirs.push(dir);
    const port = 40_000 + Math.floor(Math.random() * 10_000);
    const log = path.join(dir, "tinyproxy.log");
    writeFileSync(log, "");
    execFileSync("chmod", ["666", log]);
    writeFileSync(
      path.join(dir, "tinyproxy.conf"),
      [
        `Port ${port}`,
        "Listen 127.0.0.1",
        "Timeout 60",
        `LogFile "${log}"`,
        "LogLevel Connect",
        "Allow 127.0.0.1",
        "ConnectPort 443",
        "MaxClients 20",
      ].join("\n"),
    );
    tinyproxy = spawn("tinyproxy", ["-d", "-c", path.join(dir, "tinyproxy.conf")], { stdio: "ignore" });
    upstreamEgress = new EgressProxy({
      docker: new (await import("dockerode")).default(),
      instance: `${PREFIX}-upstream`,
      stateDir: upstreamState,
      port: 20_000 + Math.floor(Math.random() * 20_000),
      upstream: { host: "127.0.0.1", port },
      log: silent,
    });
    upstreamProvider = new DockerSandboxProvider({
      logger: silent,
      instance: `${PREFIX}-upstream`,
      egress: upstreamEgress,
    });
    const sessionId = `${PREFIX}-upstream`;
    const box = await upstreamProvider.create({ sessionId, egress: registries });
    await upstreamProvider.setEgressPhase(sessionId, "setup", registries);
    const fetched = await box.exec(
      "curl -sS -m 30 -o /dev/null -w '%{http_code}' https://registry.npmjs.org/is-odd",
    );
    expect(fetched.stdout).toBe("200");
    expect(readFileSync(log, "utf8")).toMatch(/CONNECT registry\.npmjs\.org:443/i);
    await box.dispose();
  });
});

describe("a project image build under the setup phase's policy", () => {
  const docker = new Docker();
  const tags: string[] = [];
  afterAll(async () => {
    for (const tag of tags)
      await docker
        .getImage(tag)
        .remove({ force: true })
        .catch(() => undefined);
  });

  /** Builds a one-line Dockerfile on the sandbox image with `settings`; the log, and the error if any. */
  async function build(run: string, settings: EgressSettings) {
    const dir = mkdtempSync(path.join(tmpdir(), "arbor-build-egress-"));
    tempDirs.push(dir);
    writeFileSync(path.join(dir, "Dockerfile"), `ARG ARBOR_BASE\nFROM \${ARBOR_BASE}\nRUN ${run}\n`);
    const context = execFileSync("tar", ["-C", dir, "-c", "."]);
    const tag = `${PREFIX.toLowerCase()}-build-egress:${tags.length}`;
    tags.push(tag);
    const network = await buildNetworkFor(settings, proxy);
    let log = `${network.note}\n`;
    try {
      await buildImage({
        docker,
        context,
        dockerfile: "Dockerfile",
        tag,
        baseImage: provider.image,
        labels: {},
        onLog: (text) => {
          log += text;
        },
        networkMode: network.networkMode,
        buildArgs: network.buildArgs,
      });
      return { log, error: null, networkMode: network.networkMode };
    } catch (error) {
      return { log, error: error as Error, networkMode: network.networkMode };
    } finally {
      network.release();
    }
  }

  it("reaches a listed registry through the proxy, and a host not listed fails the build with the proxy's refusal", async () => {
    const allowed = await build(
      "curl -fsS -m 30 -o /dev/null -w 'registry answered %{http_code}\\n' https://registry.npmjs.org/is-odd",
      registries,
    );
    expect(allowed.networkMode).toBe(proxy.networkName);
    expect(allowed.error).toBeNull();
    expect(allowed.log).toMatch(/registry answered 200/);

    const refused = await build(`curl -fsS -m 10 http://vm:${serverPort}/`, registries);
    expect(refused.error).toBeInstanceOf(ProjectImageBuildError);
    // squid's answer reaches the build log: the host is not on the list.
    expect(refused.log).toMatch(/403/);
    expect(refused.log).not.toMatch(/reached the host/);
    // The build's token is gone with it: its rule no longer lets anything through.
    expect(readFileSync(path.join(proxyState, "rules.json"), "utf8")).not.toMatch(/token:/);
  });

  it("builds with no network at all when the setup phase is Off", async () => {
    const off = await build(
      "curl -fsS -m 10 -o /dev/null https://registry.npmjs.org/is-odd",
      Settings.parse({ setup: { mode: "off" }, agent: { mode: "off" } }),
    );
    expect(off.networkMode).toBe("none");
    expect(off.error).toBeInstanceOf(ProjectImageBuildError);
    expect(off.log).toMatch(/Could not resolve host|resolve/i);
  });
});
