import { execFileSync } from "node:child_process";
import path from "node:path";
import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDockerHosts } from "@/server/domain/vocabulary/docker-hosts";
import { type EgressSettings, EgressSettings as Settings } from "@/server/domain/vocabulary/egress";
import { PREFIX, ROOT, silent } from "@/testing/sandbox/docker";
import { DEFAULT_SANDBOX_IMAGE } from "../container-spec";
import { DockerSandboxProvider } from "../docker-provider";
import { copyImageByName, dockerClientFor } from "../hosts/docker-host";
import type { Sandbox } from "../types";
import type { EgressConnection } from "./egress-proxy";
import { EgressUnavailableError } from "./internal-network";
import { RemoteEgressProxy } from "./remote-egress-proxy";

/**
 * Issue #19: a sandbox on a second Docker engine (deploy/docker-host.sh, its own network namespace,
 * TCP with mutual TLS; its own name and subnet so parallel tests never stop each other's engine) gets
 * the egress phases through squid running as a container on that engine. Needs root and the
 * arbor-egress image (egress-image/build.sh).
 */
const hostEnv = { ARBOR_DOCKER_HOST_NAME: "arbor-dh-egress", ARBOR_DOCKER_HOST_NET: "235" };
const registries: EgressSettings = Settings.parse({ setup: { mode: "registries" }, agent: { mode: "off" } });
const connections: EgressConnection[] = [];
let proxy: RemoteEgressProxy;
let provider: DockerSandboxProvider;
let box: Sandbox;
let remote: Docker;
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
    const [config] = parseDockerHosts(entry);
    if (!config) throw new Error("no host");
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

  it("makes the proxy container again when it stopped, at the next networked phase", async () => {
    await remote.getContainer(proxy.containerName).kill();
    await expect
      .poll(
        async () =>
          (await provider.setEgressPhase(sessionId, "setup", registries).catch(() => null))?.applied,
        {
          timeout: 30_000,
        },
      )
      .toBe("registries");
    const registry = await box.exec(
      "curl -sS -m 20 -o /dev/null -w '%{http_code}' https://registry.npmjs.org/left-pad",
    );
    expect(registry.stdout).toBe("200");
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
