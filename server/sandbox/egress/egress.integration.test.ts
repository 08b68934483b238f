import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { networkInterfaces, tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DockerSandboxProvider } from "../docker-provider";
import { cleanUp, PREFIX, silent, testProvider } from "../docker-testing";
import type { Sandbox } from "../types";
import { type EgressConnection, EgressProxy } from "./egress-proxy";
import { type EgressSettings, EgressSettings as Settings } from "./policy";

/**
 * Egress through a real squid on a real internal Docker network. One proxy for the whole file.
 * Needs root (iptables) and Debian's squid (scripts/lib.sh installs it).
 */
let proxy: EgressProxy;
let provider: DockerSandboxProvider;
let server: Server;
let serverPort = 0;
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
    stateDir: path.join(tmpdir(), `${PREFIX}-egress`),
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
