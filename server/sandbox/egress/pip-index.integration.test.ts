import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EgressSettings } from "@/server/domain/vocabulary/egress";
import { cleanUp, PREFIX, silent, testProvider } from "@/testing/sandbox/docker";
import { DockerSandboxProvider } from "../docker-provider";
import type { Sandbox } from "../types";
import { type EgressConnection, EgressProxy } from "./egress-proxy";

/**
 * `pip install` in a virtual environment inside the sandbox, through Arbor's egress proxy, from a
 * package index on a test host: only npm and Debian are reachable from these machines, so the test
 * serves its own `/simple/` index (one tiny wheel) from a network namespace of its own, at an address
 * that is neither private nor this machine's (TEST-NET-2), which the proxy may therefore reach. The
 * sandbox reaches it only through the proxy (its network is internal). The index's name resolves for
 * squid alone: squid runs in a mount namespace where /etc/hosts has the name (the machine's own file
 * is untouched). Needs root (netns, iptables, mount) and Debian's squid.
 */
const INDEX_HOST = "pip-index.test";
const INDEX_PORT = 8080;
const PACKAGE = "arbor_tiny";
const tag = randomBytes(3).toString("hex");
const netns = `arbpip-${tag}`;
const hostLink = `vph${tag}`;
const nsLink = `vpn${tag}`;
// A /30 inside TEST-NET-2 (198.51.100.0/24): not in the proxy's blocked ranges; the host's side
// of the link is one of this machine's addresses (refused), the namespace's side is not.
const block = 4 * (1 + ((randomBytes(1)[0] ?? 0) % 60));
const hostAddress = `198.51.100.${block + 1}`;
const indexAddress = `198.51.100.${block + 2}`;

const dir = mkdtempSync(path.join(tmpdir(), "arbor-pip-index-"));
const proxyState = mkdtempSync(path.join(tmpdir(), "arbor-pip-proxy-"));
const connections: EgressConnection[] = [];
let indexServer: ChildProcess | undefined;
let proxy: EgressProxy;
let provider: DockerSandboxProvider;
let box: Sandbox;
const sessionId = `${PREFIX}-pip`;

const ip = (...args: string[]) => execFileSync("ip", args, { stdio: "pipe" });

/** A wheel of one module, made with the host's Python (zipfile and a RECORD of sha256 hashes). */
function buildIndex(): void {
  const script = `
import base64, hashlib, os, sys, zipfile
root, name = sys.argv[1], sys.argv[2]
files = {
    f"{name}/__init__.py": "def hello():\\n    return 'hello from the local index'\\n",
    f"{name}-0.1.0.dist-info/METADATA": f"Metadata-Version: 2.1\\nName: {name}\\nVersion: 0.1.0\\n",
    f"{name}-0.1.0.dist-info/WHEEL": "Wheel-Version: 1.0\\nGenerator: arbor-test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n",
}
def digest(data):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
record = "".join(f"{path},{digest(text.encode())},{len(text.encode())}\\n" for path, text in files.items())
files[f"{name}-0.1.0.dist-info/RECORD"] = record + f"{name}-0.1.0.dist-info/RECORD,,\\n"
wheel = f"{name}-0.1.0-py3-none-any.whl"
os.makedirs(os.path.join(root, "packages"))
os.makedirs(os.path.join(root, "simple", name.replace("_", "-")))
with zipfile.ZipFile(os.path.join(root, "packages", wheel), "w") as archive:
    for path, text in files.items():
        archive.writestr(path, text)
sha = hashlib.sha256(open(os.path.join(root, "packages", wheel), "rb").read()).hexdigest()
with open(os.path.join(root, "simple", "index.html"), "w") as page:
    page.write(f'<html><body><a href="{name.replace("_", "-")}/">{name}</a></body></html>')
with open(os.path.join(root, "simple", name.replace("_", "-"), "index.html"), "w") as page:
    page.write(f'<html><body><a href="../../packages/{wheel}#sha256={sha}">{wheel}</a></body></html>')
`;
  execFileSync("python3", ["-c", script, path.join(dir, "www"), PACKAGE], { stdio: "pipe" });
}

/** squid, started in a mount namespace whose /etc/hosts also names the index. */
function squidWrapper(): string {
  const hosts = path.join(dir, "hosts");
  writeFileSync(hosts, `${readFileSync("/etc/hosts", "utf8")}\n${indexAddress} ${INDEX_HOST}\n`, {
    mode: 0o644,
  });
  const wrapper = path.join(dir, "squid-with-hosts");
  writeFileSync(
    wrapper,
    `#!/bin/sh\nexec unshare -m sh -c 'mount --bind "$0" /etc/hosts && exec /usr/sbin/squid "$@"' ${hosts} "$@"\n`,
    { mode: 0o755 },
  );
  return wrapper;
}

beforeAll(async () => {
  testProvider("pip-image"); // builds the image if needed
  buildIndex();
  // The index's own network namespace, linked to this machine by a veth pair.
  ip("netns", "add", netns);
  ip("link", "add", hostLink, "type", "veth", "peer", "name", nsLink);
  ip("link", "set", nsLink, "netns", netns);
  ip("addr", "add", `${hostAddress}/30`, "dev", hostLink);
  ip("link", "set", hostLink, "up");
  ip("-n", netns, "addr", "add", `${indexAddress}/30`, "dev", nsLink);
  ip("-n", netns, "link", "set", nsLink, "up");
  ip("-n", netns, "link", "set", "lo", "up");
  indexServer = spawn(
    "ip",
    [
      "netns",
      "exec",
      netns,
      "python3",
      "-m",
      "http.server",
      String(INDEX_PORT),
      "--bind",
      indexAddress,
      "--directory",
      path.join(dir, "www"),
    ],
    { stdio: "ignore" },
  );
  await waitForIndex();
  proxy = new EgressProxy({
    docker: new Docker(),
    instance: `${PREFIX}-pip`,
    stateDir: proxyState, // its own directory: squid's user cannot enter the test's (0700)
    port: 20_000 + Math.floor(Math.random() * 20_000),
    upstream: null,
    log: silent,
    squidPath: squidWrapper(),
    onConnection: (connection) => connections.push(connection),
  });
  // Started here, so that a squid that cannot start fails the file with its reason; under the umask the
  // server runs with (server/data-dir/private-files.ts): squid's own user must still read its files.
  const previousUmask = process.umask(0o077);
  try {
    await proxy.start();
  } finally {
    process.umask(previousUmask);
  }
  provider = new DockerSandboxProvider({ logger: silent, instance: `${PREFIX}-pip`, egress: proxy });
  box = await provider.create({ sessionId, egress: EgressSettings.parse({}) });
}, 600_000);

afterAll(async () => {
  await box?.dispose();
  await cleanUp(provider);
  await proxy?.destroy();
  indexServer?.kill();
  try {
    ip("link", "del", hostLink);
  } catch {
    // gone with the namespace already
  }
  try {
    ip("netns", "del", netns);
  } catch {
    // never made
  }
  rmSync(dir, { recursive: true, force: true });
  rmSync(proxyState, { recursive: true, force: true });
});

async function waitForIndex(): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    try {
      const page = execFileSync(
        "ip",
        ["netns", "exec", netns, "curl", "-sS", "-m", "2", `http://${indexAddress}:${INDEX_PORT}/simple/`],
        { stdio: "pipe" },
      ).toString();
      if (page.includes(PACKAGE)) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error("the test package index did not start");
}

/** The proxy's log is read every 200 ms: wait until a connection to the index arrives. */
async function connectionToIndex(): Promise<EgressConnection> {
  let found: EgressConnection | undefined;
  await expect
    .poll(
      () => {
        proxy.readLog();
        found = connections.find((c) => c.sessionId === sessionId && c.host === INDEX_HOST);
        return found !== undefined;
      },
      { timeout: 10_000 },
    )
    .toBe(true);
  return found as EgressConnection;
}

/** A new virtual environment, then pip from the test index only (plain HTTP, hence trusted-host). */
const pipInstall = (venv: string) =>
  `python3 -m venv ${venv} && ${venv}/bin/pip install --no-cache-dir --disable-pip-version-check ` +
  `--retries 0 --timeout 10 --index-url http://${INDEX_HOST}:${INDEX_PORT}/simple/ ` +
  `--trusted-host ${INDEX_HOST} ${PACKAGE}`;

describe("pip against a package index on a test host, through the egress proxy", () => {
  it("installs into a virtual environment when the index's host is on the custom allow-list", async () => {
    const custom = EgressSettings.parse({
      setup: { mode: "custom" },
      allowList: [`${INDEX_HOST}:${INDEX_PORT}`],
    });
    expect(await provider.setEgressPhase(sessionId, "setup", custom)).toMatchObject({
      applied: "custom",
      problem: null,
    });
    const install = await box.exec(
      `${pipInstall("/workspace/.venv")} && /workspace/.venv/bin/python -c "import ${PACKAGE}; print(${PACKAGE}.hello())"`,
      { timeoutMs: 120_000 },
    );
    expect(install.stdout).toContain(`Successfully installed ${PACKAGE}-0.1.0`);
    expect(install.exitCode).toBe(0);
    expect(install.stdout.trim().split("\n").at(-1)).toBe("hello from the local index");
    expect(await connectionToIndex()).toMatchObject({
      phase: "setup",
      method: "GET",
      port: INDEX_PORT,
      allowed: true,
    });
    // The sandbox itself has no route to the index: only the proxy reaches it.
    const direct = await box.exec(
      `curl -sS -m 5 --noproxy '*' http://${indexAddress}:${INDEX_PORT}/simple/ 2>&1`,
    );
    expect(direct.exitCode).not.toBe(0);
    expect(direct.stdout).not.toContain(PACKAGE);
  });

  it("fails, and records the refusal, when the index's host is not allowed", async () => {
    const registries = EgressSettings.parse({ setup: { mode: "registries" } });
    await provider.setEgressPhase(sessionId, "setup", registries);
    connections.length = 0;
    const install = await box.exec(`${pipInstall("/workspace/.venv2")} 2>&1`, { timeoutMs: 120_000 });
    expect(install.exitCode).not.toBe(0);
    expect(install.stdout).not.toContain("Successfully installed");
    expect(
      (await box.exec("test -d /workspace/.venv2/lib/python3*/site-packages/arbor_tiny")).exitCode,
    ).not.toBe(0);
    expect(await connectionToIndex()).toMatchObject({
      allowed: false,
      reason: "not-listed",
      port: INDEX_PORT,
    });
  });
});
