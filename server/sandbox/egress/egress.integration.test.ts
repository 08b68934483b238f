import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EgressSettings as Settings } from "@/server/domain/vocabulary/egress";
import { EventStore } from "@/server/events/store";
import { egressRecords } from "@/server/runtime/egress-records";
import { prepareEnvironment } from "@/server/setup/prepare-environment";
import { createTestDb, seedSession } from "@/testing/db/test-db";
import { cleanUp, PREFIX, silent, tempDirs } from "@/testing/sandbox/docker";
import { egressFixture, hostAddress, registries } from "@/testing/sandbox/egress-fixture";
import { DockerSandboxProvider } from "../docker-provider";
import type { Sandbox } from "../types";
import { type EgressConnection, EgressProxy } from "./egress-proxy";
import { RemoteEgressProxy } from "./remote-egress-proxy";

/**
 * A sandbox's network through a real squid on a real internal Docker network: what gets through and
 * what is refused, an upstream proxy, and a server restart. The setup phase and image builds are in
 * egress-setup.integration.test.ts (the same fixture, testing/sandbox/egress-fixture.ts).
 */
const egress = egressFixture("egress");

/** A new run's environment step: each phase applied to the sandbox and recorded, with no setup command. */
async function recordPhasesAsARunDoes(
  store: EventStore,
  sessionId: string,
  projectId: string,
  sandboxes: DockerSandboxProvider,
  settings: Settings,
): Promise<void> {
  await prepareEnvironment({
    runId: "run-1",
    sessionId,
    fresh: false,
    environment: {
      projectId,
      egress: settings,
      setup: null,
      openSecrets: async () => ({ env: {}, unreadable: [] }),
    },
    sandboxes,
    append: async (bodies) => {
      await store.append(sessionId, bodies);
    },
    runSetup: () => Promise.reject(new Error("no setup here")),
  });
}

describe("egress through the proxy", () => {
  let box: Sandbox;
  const sessionId = `${PREFIX}-egress-npm`;

  beforeAll(async () => {
    box = await egress.provider.create({ sessionId, egress: registries });
  });
  afterAll(async () => box?.dispose());

  it("installs a package from the npm registry with Package registries only", async () => {
    const applied = await egress.provider.setEgressPhase(sessionId, "setup", registries);
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
    const seen = await egress.connectionTo(sessionId, "registry.npmjs.org");
    expect(seen).toMatchObject({ phase: "setup", method: "CONNECT", port: 443, allowed: true, reason: null });
    expect(seen.bytesIn).toBeGreaterThan(1000);
  });

  it("refuses a host not listed, a raw IP and a listed name that resolves to this machine, and records each", async () => {
    const notListed = await box.exec(
      `curl -sS -m 10 -o /dev/null -w '%{http_code}' http://vm:${egress.serverPort}/`,
    );
    expect(notListed.stdout).toBe("403");
    expect(await egress.connectionTo(sessionId, "vm")).toMatchObject({
      allowed: false,
      reason: "not-listed",
      port: egress.serverPort,
    });

    const rawIp = await box.exec(
      `curl -sS -m 10 -o /dev/null -w '%{http_code}' http://${hostAddress}:${egress.serverPort}/`,
    );
    expect(rawIp.stdout).toBe("403");
    expect(await egress.connectionTo(sessionId, hostAddress)).toMatchObject({
      allowed: false,
      reason: "raw-ip",
    });

    const tunnel = await box.exec("curl -sS -m 10 https://1.1.1.1/ 2>&1");
    expect(tunnel.exitCode).not.toBe(0);
    expect(await egress.connectionTo(sessionId, "1.1.1.1")).toMatchObject({
      method: "CONNECT",
      allowed: false,
      reason: "raw-ip",
    });

    // "vm" resolves to 127.0.0.1 on this machine: allowed by name, refused by its address.
    const custom = Settings.parse({ setup: { mode: "custom" }, allowList: [`vm:${egress.serverPort}`] });
    await egress.provider.setEgressPhase(sessionId, "setup", custom);
    egress.connections.length = 0;
    const loopback = await box.exec(
      `curl -sS -m 10 -o /dev/null -w '%{http_code}' http://vm:${egress.serverPort}/`,
    );
    expect(loopback.stdout).toBe("403");
    expect(await egress.connectionTo(sessionId, "vm")).toMatchObject({
      allowed: false,
      reason: "private-address",
    });
    await egress.provider.setEgressPhase(sessionId, "setup", registries);
  });

  it("gives the sandbox no DNS and no route but the proxy's port", async () => {
    const dns = await box.exec("getent hosts registry.npmjs.org", { timeoutMs: 30_000 });
    expect(dns.exitCode).not.toBe(0);
    expect(dns.stdout).toBe("");
    const direct = await box.exec("curl -sS -m 8 --noproxy '*' https://registry.npmjs.org/ 2>&1");
    expect(direct.exitCode).not.toBe(0);
    // The host's other ports (Arbor, Docker's API, the database…) are dropped at the gateway.
    const gateway = new URL(egress.proxy.url).hostname;
    const host = await box.exec(`curl -sS -m 5 --noproxy '*' http://${gateway}:${egress.serverPort}/ 2>&1`);
    expect(host.exitCode).not.toBe(0);
    expect(host.stdout).not.toContain("reached the host");
  });

  it("lets nothing leave with Off: the container has no network at all", async () => {
    const applied = await egress.provider.setEgressPhase(sessionId, "agent", registries);
    expect(applied).toMatchObject({ phase: "agent", requested: "off", applied: "off", problem: null });
    egress.connections.length = 0;
    const links = await box.exec("cat /proc/net/dev | tail -n +3 | cut -d: -f1 | tr -d ' '");
    expect(links.stdout.trim()).toBe("lo");
    const fetch = await box.exec("curl -sS -m 8 https://registry.npmjs.org/ 2>&1");
    expect(fetch.exitCode).not.toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 500));
    egress.proxy.readLog();
    expect(egress.connections.filter((c) => c.allowed)).toEqual([]);
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

describe("a server restart", () => {
  it("gives a running sandbox its recorded phase back on its first use in the new process, no wider, without a phase change", async () => {
    const { db, cleanup } = await createTestDb();
    let restarted: EgressProxy | undefined;
    let box: Sandbox | undefined;
    try {
      const { session, project } = await seedSession(db);
      const store = new EventStore(db);
      const custom = Settings.parse({
        setup: { mode: "off" },
        agent: { mode: "custom" },
        allowList: ["registry.npmjs.org:443"],
      });
      const records = () => egressRecords({ db, store, currentEgress: async () => custom });
      const before = new DockerSandboxProvider({
        logger: silent,
        instance: egress.instance,
        egress: egress.proxy,
        egressRecords: records(),
      });
      box = await before.create({ sessionId: session.id, egress: custom });
      await recordPhasesAsARunDoes(store, session.id, project.id, before, custom);
      const registry = "curl -sS -m 20 -o /dev/null -w '%{http_code}' https://registry.npmjs.org/left-pad";
      expect((await box.exec(registry)).stdout).toBe("200");
      // A rule a dead process left in the rules file must not survive into the new process's proxy.
      egress.proxy.setRule("10.99.0.9", { sessionId: "ghost", phase: "agent" }, "open");
      // The server dies (kill -9: its squid runs on with the old rules) and a new process starts its
      // proxy for something else: same state directory and network, none of the old process's memory;
      // the start kills the squid the pid file names.
      restarted = new EgressProxy({
        docker: new Docker(),
        instance: egress.instance,
        stateDir: egress.proxyState,
        port: egress.proxyPort,
        upstream: null,
        log: silent,
      });
      await restarted.start();
      const after = new DockerSandboxProvider({
        logger: silent,
        instance: egress.instance,
        egress: restarted,
        egressRecords: records(),
      });
      const again = await after.get(session.id);
      expect(again?.id).toBe(box.id);
      const started = Date.now();
      expect((await again?.exec(registry))?.stdout).toBe("200");
      console.info(`first command after the restart reached the registry in ${Date.now() - started} ms`);
      const outside = await again?.exec("curl -sS -m 10 -o /dev/null -w '%{http_code}' http://example.com/");
      expect(outside?.stdout).toBe("403");
      const rules = readFileSync(path.join(egress.proxyState, "rules.json"), "utf8");
      expect(rules).toContain(session.id);
      expect(rules).not.toContain("10.99.0.9");
      // Recorded like any phase, marked as given back: the environment panel shows it.
      const phases = (await store.read(session.id)).filter((event) => event.body.type === "egress-phase-set");
      expect(phases.map((event) => event.body)).toMatchObject([
        { phase: "agent", applied: "custom", allowList: ["registry.npmjs.org:443"] },
        { phase: "agent", applied: "custom", problem: null, restored: true },
      ]);
    } finally {
      await box?.dispose();
      await restarted?.close();
      await cleanup();
    }
  });
});

describe("a run taken over by another instance", () => {
  it("gives a sandbox made without a proxy (its instance's was down) the proxy's variables once a phase puts it behind one", async () => {
    const sessionId = `${PREFIX}-egress-made-on-bridge`;
    // No proxy: what an instance whose proxy could not start does with Open in one phase.
    const withoutProxy = new DockerSandboxProvider({ logger: silent, instance: egress.instance });
    const openThenRegistries = Settings.parse({ setup: { mode: "open" }, agent: { mode: "registries" } });
    const box = await withoutProxy.create({ sessionId, egress: openThenRegistries });
    try {
      const inspected = await new Docker().getContainer(box.id).inspect();
      expect(Object.keys(inspected.NetworkSettings.Networks ?? {})).toEqual(["bridge"]);
      const applied = await egress.provider.setEgressPhase(sessionId, "agent", openThenRegistries);
      expect(applied).toMatchObject({ requested: "registries", applied: "registries" });
      const behind = await egress.provider.get(sessionId);
      const fetch = (url: string) =>
        `curl -sS --connect-timeout 2 -m 20 -o /dev/null -w '%{http_code}' ${url}`;
      expect((await behind?.exec(fetch("https://registry.npmjs.org/left-pad")))?.stdout).toBe("200");
      expect((await behind?.exec(fetch("http://example.com/")))?.stdout).toBe("403");
    } finally {
      await box.dispose();
    }
  });

  it("in an Open phase whose new instance's proxy cannot start, blanks the proxy variables: its tools go out the bridge", async () => {
    const sessionId = `${PREFIX}-egress-open-no-proxy`;
    const open = Settings.parse({ setup: { mode: "open" }, agent: { mode: "off" } });
    const broken = new RemoteEgressProxy({
      docker: new Docker(),
      imageSource: new Docker(),
      image: "arbor-egress-missing:none",
      instance: `${egress.instance}-broken`,
      port: egress.proxyPort + 2,
      upstream: null,
      log: silent,
    });
    const takeover = new DockerSandboxProvider({
      logger: silent,
      instance: `${egress.instance}-broken`,
      egress: broken,
    });
    const box = await egress.provider.create({ sessionId, egress: open });
    try {
      expect(await takeover.setEgressPhase(sessionId, "setup", open)).toMatchObject({ applied: "open" });
      const taken = await takeover.get(sessionId);
      expect((await taken?.exec("printenv HTTPS_PROXY"))?.stdout).toBe("\n");
      const registry = "curl -sS -m 20 -o /dev/null -w '%{http_code}' https://registry.npmjs.org/left-pad";
      expect((await taken?.exec(registry))?.stdout).toBe("200");
    } finally {
      await box.dispose();
      await broken.destroy();
    }
  });

  it("moves to the new instance's network and proxy on its first use there: its rules hold, the first instance's squid is out of reach", async () => {
    const { db, cleanup } = await createTestDb();
    const stateDir = mkdtempSync(path.join(tmpdir(), "arbor-egress-state-b-"));
    const seen: EgressConnection[] = [];
    let other: EgressProxy | undefined;
    const boxes: Sandbox[] = [];
    try {
      const { session, project } = await seedSession(db);
      const store = new EventStore(db);
      const agentRegistries = Settings.parse({ setup: { mode: "off" }, agent: { mode: "registries" } });
      const records = () => egressRecords({ db, store, currentEgress: async () => agentRegistries });
      // Instance A makes the sandbox, sets and records its phase (as a run does), then dies.
      const first = new DockerSandboxProvider({
        logger: silent,
        instance: egress.instance,
        egress: egress.proxy,
        egressRecords: records(),
      });
      const box = await first.create({ sessionId: session.id, egress: agentRegistries });
      boxes.push(box);
      await recordPhasesAsARunDoes(store, session.id, project.id, first, agentRegistries);
      // Connecting to a proxy that is out of reach hangs until the timeout: 2 s says enough.
      const fetch = (url: string) =>
        `curl -sS --connect-timeout 2 -m 20 -o /dev/null -w '%{http_code}' ${url}`;
      const registry = fetch("https://registry.npmjs.org/left-pad");
      expect((await box.exec(registry)).stdout).toBe("200");
      // A container A made and set a phase for, whose record A died before appending: its squid
      // keeps the rule, so the takeover must not leave the container there.
      const unrecordedId = `${PREFIX}-egress-takeover-unrecorded`;
      boxes.push(await first.create({ sessionId: unrecordedId, egress: agentRegistries }));
      await first.setEgressPhase(unrecordedId, "agent", agentRegistries);
      // Instance B (its own label, network and squid) takes the runs over; A's squid runs on.
      other = new EgressProxy({
        docker: new Docker(),
        instance: `${egress.instance}-b`,
        stateDir,
        port: egress.proxyPort + 1,
        upstream: null,
        log: silent,
        onConnection: (connection) => seen.push(connection),
      });
      const takeover = new DockerSandboxProvider({
        logger: silent,
        instance: `${egress.instance}-b`,
        egress: other,
        egressRecords: records(),
      });
      const aLog = path.join(egress.proxyState, "access.log");
      const aLogBefore = readFileSync(aLog, "utf8").length;
      const networksOf = async (id: string) =>
        Object.keys((await new Docker().getContainer(id).inspect()).NetworkSettings.Networks ?? {});
      // B's first use gives back the recorded phase through B: off A's network, onto B's.
      const taken = await takeover.get(session.id);
      expect(await networksOf(box.id)).not.toContain(egress.proxy.networkName);
      expect(await networksOf(box.id)).toContain(other.networkName);
      // A's process, were it alive, would use the proxy address baked in at creation: out of reach.
      expect((await box.exec(registry)).stdout).toBe("000");
      // B's commands, terminal and programs get B's proxy, under the phase B gave back.
      expect((await taken?.exec("printenv HTTPS_PROXY"))?.stdout.trim()).toBe(other.url);
      expect((await taken?.exec(registry))?.stdout).toBe("200");
      expect((await taken?.exec(fetch("http://example.com/")))?.stdout).toBe("403");
      await expect
        .poll(() => {
          other?.readLog();
          return seen.filter((c) => c.sessionId === session.id).map((c) => [c.host, c.allowed, c.reason]);
        })
        .toEqual([
          ["registry.npmjs.org", true, null],
          ["example.com", false, "not-listed"],
        ]);
      const phases = (await store.read(session.id)).filter((event) => event.body.type === "egress-phase-set");
      expect(phases.at(-1)?.body).toMatchObject({ phase: "agent", applied: "registries", restored: true });
      // No record: B cannot know the phase, so the container leaves A's network and gets none (Off).
      const unrecorded = await takeover.get(unrecordedId);
      expect(await networksOf(boxes[1]?.id ?? "")).toEqual([]);
      expect((await unrecorded?.exec(registry))?.stdout).toBe("000");
      // Nothing of the taken-over sessions went through A's squid.
      expect(readFileSync(aLog, "utf8").slice(aLogBefore)).toBe("");
      // B narrows the phase: Off leaves no way out, whatever the variables say.
      await takeover.setEgressPhase(session.id, "agent", Settings.parse({}));
      expect((await taken?.exec(registry))?.stdout).toBe("000");
    } finally {
      for (const box of boxes) await box.dispose();
      await other?.destroy();
      rmSync(stateDir, { recursive: true, force: true });
      await cleanup();
    }
  });
});
