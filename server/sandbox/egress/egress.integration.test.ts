import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EgressSettings as Settings } from "@/server/domain/vocabulary/egress";
import { cleanUp, PREFIX, silent, tempDirs } from "@/testing/sandbox/docker";
import { egressFixture, hostAddress, registries } from "@/testing/sandbox/egress-fixture";
import { DockerSandboxProvider } from "../docker-provider";
import type { Sandbox } from "../types";
import { EgressProxy } from "./egress-proxy";

/**
 * A sandbox's network through a real squid on a real internal Docker network: what gets through and
 * what is refused, and an upstream proxy. A server restart and a takeover by another instance are in
 * egress-restart.integration.test.ts, the setup phase and image builds in egress-setup.integration.test.ts
 * (the same fixture, testing/sandbox/egress-fixture.ts).
 */
const egress = egressFixture("egress");

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
