import { execFileSync } from "node:child_process";
import path from "node:path";
import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DockerHostConfig, parseDockerHosts } from "@/server/domain/vocabulary/docker-hosts";
import { type EgressSettings, EgressSettings as Settings } from "@/server/domain/vocabulary/egress";
import { EventStore } from "@/server/events/store";
import { egressRecords } from "@/server/runtime/egress-records";
import { createTestDb, seedSession } from "@/testing/db/test-db";
import { PREFIX, ROOT, silent } from "@/testing/sandbox/docker";
import { DEFAULT_SANDBOX_IMAGE } from "../container-spec";
import { runInContainer } from "../docker-exec";
import { DockerSandboxProvider } from "../docker-provider";
import { copyImageByName, dockerClientFor } from "../hosts/docker-host";
import { MultiHostSandboxProvider } from "../hosts/multi-host-provider";
import type { Sandbox } from "../types";
import type { EgressConnection } from "./egress-proxy";
import { EgressUnavailableError } from "./internal-network";
import { type EgressInterruption, RemoteEgressProxy } from "./remote-egress-proxy";

/**
 * Issue #19: a sandbox on a second Docker engine (deploy/docker-host.sh, its own network namespace,
 * TCP with mutual TLS; its own name and subnet so parallel tests never stop each other's engine) gets
 * the egress phases through squid running as a container on that engine. Needs root and the
 * arbor-egress image (egress-image/build.sh).
 */
const hostEnv = { ARBOR_DOCKER_HOST_NAME: "arbor-dh-egress", ARBOR_DOCKER_HOST_NET: "235" };
/** A public-looking address the test gives the second host (TEST-NET-2, on its loopback). */
const HOST_PUBLIC_ADDRESS = "198.51.100.235";
const registries: EgressSettings = Settings.parse({ setup: { mode: "registries" }, agent: { mode: "off" } });
const connections: EgressConnection[] = [];
const interruptions: EgressInterruption[] = [];
let proxy: RemoteEgressProxy;
/** The proxy of the "restarted server" (the last test); the same container name as `proxy`'s. */
let restarted: RemoteEgressProxy | undefined;
let provider: DockerSandboxProvider;
let box: Sandbox;
let remote: Docker;
let config: DockerHostConfig;
const sessionId = `${PREFIX}-remote-egress`;

async function connectionTo(host: string): Promise<EgressConnection> {
  await expect
    .poll(() => connections.some((c) => c.sessionId === sessionId && c.host === host), { timeout: 10_000 })
    .toBe(true);
  return connections.find((c) => c.sessionId === sessionId && c.host === host) as EgressConnection;
}

describe.skipIf(process.getuid?.() !== 0)("egress on another Docker host", () => {
  beforeAll(async () => {
    // The sandbox image first (a no-op when built): the egress image is made on top of it.
    for (const script of ["sandbox-image/build.sh", "egress-image/build.sh"])
      execFileSync("bash", [path.join(ROOT, script)], { stdio: "ignore" });
    const entry = execFileSync("bash", [path.join(ROOT, "deploy/docker-host.sh"), "start"], {
      encoding: "utf8",
      env: { ...process.env, ...hostEnv },
    })
      .trim()
      .split("\n")
      .at(-1) as string;
    const [parsed] = parseDockerHosts(entry);
    if (!parsed) throw new Error("no host");
    config = parsed;
    // The host's own address that is not in a private range: its squid must refuse it (read at start).
    execFileSync("bash", [
      "-c",
      `nsenter --net=/var/run/netns/${hostEnv.ARBOR_DOCKER_HOST_NAME} ip addr replace ${HOST_PUBLIC_ADDRESS}/32 dev lo`,
    ]);
    remote = dockerClientFor(config);
    const local = new Docker();
    await copyImageByName(remote, local, DEFAULT_SANDBOX_IMAGE);
    proxy = new RemoteEgressProxy({
      docker: remote,
      imageSource: local,
      instance: `${PREFIX}-remote-egress`,
      port: 3128,
      upstream: null,
      log: silent,
      onConnection: (connection) => connections.push(connection),
      onInterruption: (interruption) => interruptions.push(interruption),
    });
    provider = new DockerSandboxProvider({
      docker: remote,
      logger: silent,
      instance: `${PREFIX}-remote-egress`,
      egress: proxy,
    });
    box = await provider.create({ sessionId, egress: registries });
  }, 600_000);

  afterAll(async () => {
    await box?.dispose();
    await restarted?.destroy();
    await proxy?.destroy();
  });

  it("reaches the npm registry with Package registries only, is refused another host, and records both", async () => {
    const applied = await provider.setEgressPhase(sessionId, "setup", registries);
    expect(applied).toMatchObject({ requested: "registries", applied: "registries", problem: null });
    const registry = await box.exec(
      "curl -sS -m 20 -o /dev/null -w '%{http_code}' https://registry.npmjs.org/left-pad",
    );
    expect(registry.stdout).toBe("200");
    const refused = await box.exec("curl -sS -m 10 -o /dev/null -w '%{http_code}' http://example.com/");
    expect(refused.stdout).toBe("403");
    expect(await connectionTo("registry.npmjs.org")).toMatchObject({
      phase: "setup",
      method: "CONNECT",
      allowed: true,
    });
    expect(await connectionTo("example.com")).toMatchObject({ allowed: false, reason: "not-listed" });
  });

  it("has no route at all when the phase is Off", async () => {
    const applied = await provider.setEgressPhase(sessionId, "agent", registries);
    expect(applied).toMatchObject({ requested: "off", applied: "off" });
    const curl = await box.exec("curl -sS -m 5 -o /dev/null https://registry.npmjs.org/left-pad");
    expect(curl.exitCode).not.toBe(0);
    // No route: the kernel's routing table (after its header line) is empty.
    const routes = await box.exec("tail -n +2 /proc/net/route | wc -l");
    expect(routes.stdout.trim()).toBe("0");
  });

  it("refuses the second host's own address through its proxy, and records it", async () => {
    // Open after registries keeps the sandbox on the internal network with an open rule (raw addresses
    // allowed): only squid's dst check stands between it and the host's own address.
    const open = Settings.parse({ setup: { mode: "open" }, agent: { mode: "off" } });
    await provider.setEgressPhase(sessionId, "setup", registries);
    expect(await provider.setEgressPhase(sessionId, "setup", open)).toMatchObject({ applied: "open" });
    const own = await box.exec(
      `curl -sS -m 10 -o /dev/null -w '%{http_code}' http://${HOST_PUBLIC_ADDRESS}:2376/_ping`,
    );
    expect(own.stdout).toBe("403");
    expect(await connectionTo(HOST_PUBLIC_ADDRESS)).toMatchObject({
      allowed: false,
      reason: "private-address",
    });
  });

  it("makes a dead proxy again on the host's health interval: nothing gets out meanwhile, no phase change", async () => {
    expect(await provider.setEgressPhase(sessionId, "setup", registries)).toMatchObject({
      applied: "registries",
    });
    const health = new MultiHostSandboxProvider({
      hosts: [{ config, docker: remote, provider, egress: proxy }],
      pins: { hostOf: async () => config.id, pin: async () => undefined },
      imageSource: remote,
      instance: `${PREFIX}-remote-egress`,
      healthIntervalMs: 1_000,
      log: silent,
    });
    interruptions.length = 0;
    await remote.getContainer(proxy.containerName).kill();
    await expect.poll(() => interruptions.map((i) => i.state), { timeout: 10_000 }).toEqual(["down"]);
    expect(interruptions[0]).toMatchObject({ sessionId, phase: "setup" });
    // Down: through the proxy's address nothing answers, and there is no other way out.
    for (const command of [
      "curl -sS -m 5 -o /dev/null https://registry.npmjs.org/left-pad",
      "curl -sS -m 5 -o /dev/null --noproxy '*' https://registry.npmjs.org/left-pad",
    ])
      expect((await box.exec(command)).exitCode).not.toBe(0);
    const started = Date.now();
    health.startHealthChecks();
    try {
      await expect
        .poll(() => interruptions.map((i) => i.state), { timeout: 30_000, interval: 200 })
        .toEqual(["down", "back"]);
      const registry = await box.exec(
        "curl -sS -m 20 -o /dev/null -w '%{http_code}' https://registry.npmjs.org/left-pad",
      );
      expect(registry.stdout).toBe("200");
      console.info(`remote egress proxy made again in ${Date.now() - started} ms`);
    } finally {
      health.health.stop();
    }
  });

  it("after a restart, gives a running sandbox its recorded phase back through a proxy container holding only the new process's rules, and another instance's takeover through its own", async () => {
    const { db, cleanup } = await createTestDb();
    let restored: Sandbox | null | undefined;
    let taker: RemoteEgressProxy | undefined;
    try {
      const { session } = await seedSession(db);
      const store = new EventStore(db);
      const records = () => egressRecords({ db, store, currentEgress: async () => registries });
      const before = new DockerSandboxProvider({
        docker: remote,
        logger: silent,
        instance: `${PREFIX}-remote-egress`,
        egress: proxy,
        egressRecords: records(),
      });
      restored = await before.create({ sessionId: session.id, egress: registries });
      // The phase as the run's path records it (prepare-environment.ts), with what it was applied with.
      await store.append(session.id, [
        {
          type: "egress-phase-set",
          runId: "run-1",
          ...(await before.setEgressPhase(session.id, "setup", registries)),
          getHeadOnly: false,
          allowList: [],
        },
      ]);
      await proxy.setRule("10.99.0.9", { sessionId: "ghost", phase: "setup" }, "open");
      // The server dies: its proxy container runs on with the old rules. The new process's proxy,
      // started for something else, replaces that container (same name) with its own rules only.
      restarted = new RemoteEgressProxy({
        docker: remote,
        imageSource: new Docker(),
        instance: `${PREFIX}-remote-egress`,
        port: 3128,
        upstream: null,
        log: silent,
      });
      await restarted.start();
      const after = new DockerSandboxProvider({
        docker: remote,
        logger: silent,
        instance: `${PREFIX}-remote-egress`,
        egress: restarted,
        egressRecords: records(),
      });
      const again = await after.get(session.id);
      const registry = await again?.exec(
        "curl -sS -m 20 -o /dev/null -w '%{http_code}' https://registry.npmjs.org/left-pad",
      );
      expect(registry?.stdout).toBe("200");
      const outside = await again?.exec("curl -sS -m 10 -o /dev/null -w '%{http_code}' http://example.com/");
      expect(outside?.stdout).toBe("403");
      const { stdout: output } = await runInContainer(
        remote.getContainer(restarted.containerName),
        ["cat", "/arbor-egress/rules.json"],
        { deadlineMs: 5_000 },
      );
      expect(output).toContain(session.id);
      expect(output).not.toContain("10.99.0.9");
      const phases = (await store.read(session.id)).filter((event) => event.body.type === "egress-phase-set");
      expect(phases.at(-1)?.body).toMatchObject({ phase: "setup", applied: "registries", restored: true });

      // The restarted server dies too and another instance takes the run over: its own proxy container
      // and network on this host, started by its first use of the sandbox (nothing starts it here).
      taker = new RemoteEgressProxy({
        docker: remote,
        imageSource: new Docker(),
        instance: `${PREFIX}-remote-egress-b`,
        port: 3128,
        upstream: null,
        log: silent,
      });
      const takeover = new DockerSandboxProvider({
        docker: remote,
        logger: silent,
        instance: `${PREFIX}-remote-egress-b`,
        egress: taker,
        egressRecords: records(),
      });
      const taken = await takeover.get(session.id);
      const networks = Object.keys(
        (await remote.getContainer(restored.id).inspect()).NetworkSettings.Networks ?? {},
      );
      expect(networks).toEqual([taker.networkName]);
      const takerProxy = taker.containerEnv().find((line) => line.startsWith("HTTPS_PROXY="));
      expect(`HTTPS_PROXY=${(await taken?.exec("printenv HTTPS_PROXY"))?.stdout.trim()}`).toBe(takerProxy);
      const throughTaker = await taken?.exec(
        "curl -sS -m 20 -o /dev/null -w '%{http_code}' https://registry.npmjs.org/left-pad",
      );
      expect(throughTaker?.stdout).toBe("200");
      const refused = await taken?.exec("curl -sS -m 10 -o /dev/null -w '%{http_code}' http://example.com/");
      expect(refused?.stdout).toBe("403");
      // An MCP server's program, started through the hosts' provider as the app wires it: the same.
      const hosts = new MultiHostSandboxProvider({
        hosts: [{ config, docker: remote, provider: takeover, egress: taker }],
        pins: { hostOf: async () => config.id, pin: async () => undefined },
        imageSource: remote,
        instance: `${PREFIX}-remote-egress-b`,
        healthIntervalMs: 60_000,
        log: silent,
      });
      const program = await hosts.openProcess(session.id, ["sh", "-c", "read go; printenv HTTPS_PROXY"]);
      let printed = "";
      program.onStdout((chunk) => {
        printed += chunk.toString();
      });
      program.write("go\n");
      await expect.poll(() => printed.trim()).toBe(takerProxy?.slice("HTTPS_PROXY=".length));
      await program.close();
    } finally {
      await restored?.dispose();
      await taker?.destroy();
      await cleanup();
    }
  });

  it("fails closed when the host's proxy cannot start: a registries phase runs Off and says why", async () => {
    const broken = new RemoteEgressProxy({
      docker: remote,
      imageSource: new Docker(),
      image: "arbor-egress-missing:none",
      instance: `${PREFIX}-remote-egress-broken`,
      port: 3128,
      upstream: null,
      log: silent,
    });
    await expect(broken.start()).rejects.toBeInstanceOf(EgressUnavailableError);
    const brokenProvider = new DockerSandboxProvider({
      docker: remote,
      logger: silent,
      instance: `${PREFIX}-remote-egress-broken`,
      egress: broken,
    });
    const brokenSession = `${sessionId}-broken`;
    const brokenBox = await brokenProvider.create({ sessionId: brokenSession, egress: registries });
    try {
      const applied = await brokenProvider.setEgressPhase(brokenSession, "setup", registries);
      expect(applied).toMatchObject({ requested: "registries", applied: "off" });
      expect(applied.problem).toBeTruthy();
      const routes = await brokenBox.exec("tail -n +2 /proc/net/route | wc -l");
      expect(routes.stdout.trim()).toBe("0");
    } finally {
      await brokenBox.dispose();
      await broken.destroy();
    }
  });
});
