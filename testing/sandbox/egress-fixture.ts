import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { networkInterfaces, tmpdir } from "node:os";
import path from "node:path";
import Docker from "dockerode";
import { afterAll, beforeAll, expect } from "vitest";
import { type EgressSettings, EgressSettings as Settings } from "@/server/domain/vocabulary/egress";
import { DockerSandboxProvider } from "@/server/sandbox/docker-provider";
import { type EgressConnection, EgressProxy } from "@/server/sandbox/egress/egress-proxy";
import { cleanUp, git, PREFIX, silent, tempDirs, testProvider } from "./docker";

/**
 * The egress tests' shared fixture (server/sandbox/egress/egress*.integration.test.ts): a real squid
 * on a real internal Docker network, one per test file (each file its own owner label, so files that
 * run in parallel never share or remove each other's network), a provider using it and a small HTTP
 * server on this machine. Needs root (iptables) and Debian's squid (scripts/lib.sh installs it).
 */
export interface EgressFixture {
  readonly instance: string;
  readonly proxy: EgressProxy;
  readonly provider: DockerSandboxProvider;
  readonly proxyState: string;
  readonly proxyPort: number;
  readonly serverPort: number;
  readonly connections: EgressConnection[];
  /** The proxy's log is read every 200 ms: waits until a matching connection arrives. */
  connectionTo(sessionId: string, host: string): Promise<EgressConnection>;
}

/** This machine's first non-loopback IPv4 address: where the test server is reached. */
export const hostAddress =
  Object.values(networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .find((entry) => entry.family === "IPv4" && !entry.internal && !entry.address.startsWith("172."))
    ?.address ?? "127.0.0.1";

export const registries: EgressSettings = Settings.parse({
  setup: { mode: "registries" },
  agent: { mode: "off" },
});

/** Registers the file's beforeAll/afterAll; the returned object is filled in once beforeAll ran. */
export function egressFixture(name: string): EgressFixture {
  const instance = `${PREFIX}-${name}`;
  const proxyState = mkdtempSync(path.join(tmpdir(), "arbor-egress-state-"));
  const proxyPort = 20_000 + Math.floor(Math.random() * 20_000);
  const connections: EgressConnection[] = [];
  let server: Server | undefined;
  const fixture = {
    instance,
    proxyState,
    proxyPort,
    connections,
    serverPort: 0,
    async connectionTo(sessionId: string, host: string): Promise<EgressConnection> {
      let found: EgressConnection | undefined;
      await expect
        .poll(
          () => {
            fixture.proxy.readLog();
            found = connections.find((c) => c.sessionId === sessionId && c.host === host);
            return found !== undefined;
          },
          { timeout: 10_000 },
        )
        .toBe(true);
      return found as EgressConnection;
    },
  } as { -readonly [K in keyof EgressFixture]: EgressFixture[K] };

  beforeAll(async () => {
    // Builds the image if needed (the shared helper's provider is only used for that).
    testProvider("egress-image");
    server = createServer((_, response) => response.end("reached the host\n"));
    await new Promise<void>((resolve) => server?.listen(0, "0.0.0.0", resolve));
    fixture.serverPort = (server.address() as AddressInfo).port;
    fixture.proxy = new EgressProxy({
      docker: new Docker(),
      instance,
      stateDir: proxyState,
      port: proxyPort,
      upstream: null,
      log: silent,
      onConnection: (connection) => connections.push(connection),
    });
    fixture.provider = new DockerSandboxProvider({ logger: silent, instance, egress: fixture.proxy });
  }, 600_000);

  afterAll(async () => {
    await cleanUp(fixture.provider);
    await fixture.proxy?.destroy();
    rmSync(proxyState, { recursive: true, force: true });
    await new Promise((resolve) => server?.close(resolve));
  });
  return fixture;
}

/** A bare repository whose main holds package.json and the lock file npm made for is-odd@3.0.1. */
export function nodeProject(): string {
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
