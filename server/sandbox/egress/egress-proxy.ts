import "server-only";
import { type ChildProcess, execFile, spawn } from "node:child_process";
import {
  chmodSync,
  chownSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import type Docker from "dockerode";
import type { Logger } from "pino";
import type { EgressPhase, ProxyRule } from "@/server/domain/vocabulary/egress";
import { parseAccessLogLine } from "./access-log";
import { deleteFirewallRule, firewallRules, installFirewallRules } from "./host-firewall";
import { EgressUnavailableError, egressNames, ensureInternalNetwork, proxyEnv } from "./internal-network";
import { HELPER_SOURCE, squidConfig } from "./squid-config";
import { hostAddresses, stopStaleSquid, waitForPort } from "./squid-process";

const run = promisify(execFile);

/** One connection through (or refused by) the proxy, tied to the session whose container made it. */
export interface EgressConnection {
  sessionId: string;
  phase: EgressPhase;
  method: string;
  host: string;
  port: number;
  allowed: boolean;
  reason: string | null;
  status: number;
  bytesOut: number;
  bytesIn: number;
  at: number;
}

export interface EgressProxyOptions {
  docker: Docker;
  /** Owner of the network (see LABEL_INSTANCE); also names it. */
  instance: string;
  /** Where the config, the helper, the rules file, the pid file and the logs live. */
  stateDir: string;
  port: number;
  upstream: { host: string; port: number } | null;
  log: Logger;
  squidPath?: string;
  /** Called for every access-log line that belongs to a known container. */
  onConnection?: (connection: EgressConnection) => void;
}

interface Holder {
  sessionId: string;
  phase: EgressPhase;
}

/** The rule file's entry for one container address. */
interface StoredRule extends ProxyRule {
  sessionId: string;
  phase: EgressPhase;
  open?: boolean;
}

export { EgressUnavailableError };

/**
 * Arbor's egress proxy: an internal Docker network (no route out) whose only exit is a squid Arbor
 * runs on the host, bound to the network's gateway address, with a firewall rule that lets the
 * network's containers reach that one port of the host and nothing else. Which container may reach
 * which host is a rules file keyed by the container's address, read by squid's helper per request.
 */
export class EgressProxy {
  readonly networkName: string;
  readonly bridgeName: string;
  private gateway: string | null = null;
  private squid: ChildProcess | null = null;
  private readonly rules = new Map<string, StoredRule>();
  /** Last owner of each address, kept after a detach: a tunnel is logged when it closes. */
  private readonly owners = new Map<string, Holder>();
  private tail: NodeJS.Timeout | undefined;
  private logOffset = 0;
  private logRest = "";
  private starting: Promise<void> | null = null;
  private readonly dir: string;

  constructor(private readonly options: EgressProxyOptions) {
    ({ networkName: this.networkName, bridgeName: this.bridgeName } = egressNames(options.instance));
    this.dir = path.resolve(options.stateDir);
  }

  /** The proxy's URL as the containers see it. */
  get url(): string {
    if (!this.gateway) throw new EgressUnavailableError("The egress proxy is not started.");
    return `http://${this.gateway}:${this.options.port}`;
  }

  /** Environment of a container that reaches the world only through the proxy. */
  containerEnv(): string[] {
    return proxyEnv(this.url);
  }

  /** Creates the network, the firewall rule and squid, once; later calls wait for the same start. */
  start(): Promise<void> {
    this.starting ??= this.startOnce().catch((error: unknown) => {
      this.starting = null;
      throw error instanceof EgressUnavailableError
        ? error
        : new EgressUnavailableError(
            `The egress proxy could not start: ${error instanceof Error ? error.message : String(error)}`,
            { cause: error },
          );
    });
    return this.starting;
  }

  private async startOnce(): Promise<void> {
    this.gateway = await this.ensureNetwork();
    await this.ensureFirewall();
    mkdirSync(this.dir, { recursive: true, mode: 0o755 });
    // Explicit modes: the server runs with umask 077 (private data files), which would leave these
    // unreadable to squid's own user and its helper.
    chmodSync(this.dir, 0o755);
    const helperPath = path.join(this.dir, "rules-helper.cjs");
    const rulesPath = path.join(this.dir, "rules.json");
    const confPath = path.join(this.dir, "squid.conf");
    const root = process.getuid?.() === 0;
    writeFileSync(helperPath, HELPER_SOURCE, { mode: 0o644 });
    chmodSync(helperPath, 0o644);
    this.writeRules();
    writeFileSync(
      confPath,
      squidConfig({
        listen: { address: this.gateway, port: this.options.port },
        stateDir: this.dir,
        nodePath: process.execPath,
        helperPath,
        rulesPath,
        hostAddresses: hostAddresses(),
        upstream: this.options.upstream,
        effectiveUser: root ? "proxy" : null,
      }),
      { mode: 0o644 },
    );
    chmodSync(confPath, 0o644);
    // A fresh log per start; squid (as its own user) must be able to write the logs here.
    writeFileSync(path.join(this.dir, "access.log"), "");
    this.logOffset = 0;
    if (root) {
      const { stdout } = await run("id", ["-u", "proxy"]);
      const { stdout: gid } = await run("id", ["-g", "proxy"]);
      for (const file of [this.dir, path.join(this.dir, "access.log")])
        chownSync(file, Number(stdout), Number(gid));
      const cacheLog = path.join(this.dir, "cache.log");
      if (existsSync(cacheLog)) chownSync(cacheLog, Number(stdout), Number(gid));
    }
    const squidPath = this.options.squidPath ?? "/usr/sbin/squid";
    if (!existsSync(squidPath))
      throw new EgressUnavailableError(
        `squid is not installed (${squidPath}): install Debian's squid package.`,
      );
    await stopStaleSquid(this.dir);
    const squid = spawn(squidPath, ["-N", "-f", confPath], { stdio: ["ignore", "ignore", "pipe"] });
    squid.on("error", (error) =>
      this.options.log.error({ err: error.message }, "egress proxy (squid) failed"),
    );
    let stderr = "";
    squid.stderr?.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString("utf8")).slice(-4000);
    });
    squid.on("exit", (code) => {
      if (this.squid === squid) {
        this.squid = null;
        this.starting = null;
        this.options.log.error({ code, stderr }, "egress proxy (squid) exited");
      }
    });
    this.squid = squid;
    await waitForPort(this.gateway, this.options.port, 15_000, () => squid.exitCode !== null).catch(
      (error) => {
        squid.kill("SIGKILL");
        throw new EgressUnavailableError(
          `squid did not start: ${error instanceof Error ? error.message : String(error)} ${stderr.trim()}`.trim(),
        );
      },
    );
    this.tail = setInterval(() => this.readLog(), 200);
    this.tail.unref();
    this.options.log.info({ url: this.url, network: this.networkName }, "egress proxy started");
  }

  /** The internal network (created when missing) and its gateway address, where squid listens. */
  private ensureNetwork(): Promise<string> {
    return ensureInternalNetwork(this.options.docker, this, this.options.instance);
  }

  /** Stops squid and removes the firewall rules and the network (tests; a server keeps them). */
  async destroy(): Promise<void> {
    await this.close();
    for (const rule of firewallRules(this.bridgeName, this.gateway, this.options.port))
      await deleteFirewallRule(rule);
    await this.options.docker
      .getNetwork(this.networkName)
      .remove()
      .catch(() => undefined);
  }

  /**
   * The host's INPUT chain: from the internal network's bridge, only TCP to the proxy's port on the
   * gateway; everything else to the host (Arbor's port, Docker's API, the database) is dropped.
   */
  private async ensureFirewall(): Promise<void> {
    try {
      await installFirewallRules(firewallRules(this.bridgeName, this.gateway, this.options.port));
    } catch (error) {
      throw new EgressUnavailableError(
        "Could not install the egress firewall rule (iptables, as root): sandboxes keep no network.",
        { cause: error },
      );
    }
  }

  /** Lets the container at `address` through with `rule` (null: nothing passes) for its phase. */
  setRule(address: string, holder: Holder, rule: ProxyRule | "open" | null): void {
    this.owners.set(address, holder);
    if (rule === null) this.rules.delete(address);
    else if (rule === "open")
      this.rules.set(address, { ...holder, allow: [], getHeadOnly: false, open: true });
    else this.rules.set(address, { ...holder, ...rule });
    if (this.gateway) this.writeRules();
  }

  /**
   * A rule for requests that present `token` as the proxy password rather than for one address: a
   * project image build, whose RUN containers get addresses nobody knows in advance. null removes it.
   */
  setTokenRule(token: string, rule: ProxyRule | null): void {
    const key = `token:${token}`;
    if (rule === null) this.rules.delete(key);
    else this.rules.set(key, { sessionId: "", phase: "setup", ...rule });
    if (this.gateway) this.writeRules();
  }

  /** The proxy's URL with a build token as its credentials (see setTokenRule). */
  urlWithToken(token: string): string {
    const url = new URL(this.url);
    url.username = "arbor-build";
    url.password = token;
    return url.toString().replace(/\/$/, "");
  }

  /** Forgets every rule of a session (its container left the network, changed phase or is gone). */
  clearSession(sessionId: string): void {
    let changed = false;
    for (const [address, rule] of this.rules) {
      if (rule.sessionId === sessionId) changed = this.rules.delete(address) || changed;
    }
    if (changed && this.gateway) this.writeRules();
  }

  private writeRules(): void {
    const file = path.join(this.dir, "rules.json");
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(Object.fromEntries(this.rules)), { mode: 0o644 });
    chmodSync(temp, 0o644);
    // Atomic: the helper never reads half a file.
    renameSync(temp, file);
  }

  /** Reads what squid appended to its access log since the last read. */
  readLog(): void {
    const file = path.join(this.dir, "access.log");
    let size: number;
    try {
      size = statSync(file).size;
    } catch {
      return;
    }
    if (size < this.logOffset) this.logOffset = 0;
    if (size === this.logOffset) return;
    const buffer = Buffer.alloc(size - this.logOffset);
    const fd = openSync(file, "r");
    try {
      readSync(fd, buffer, 0, buffer.length, this.logOffset);
    } finally {
      closeSync(fd);
    }
    this.logOffset = size;
    const lines = (this.logRest + buffer.toString("utf8")).split("\n");
    this.logRest = lines.pop() ?? "";
    for (const line of lines) {
      const parsed = parseAccessLogLine(line);
      const owner = parsed ? this.owners.get(parsed.client) : undefined;
      if (!parsed || !owner) continue;
      this.options.onConnection?.({
        sessionId: owner.sessionId,
        phase: owner.phase,
        method: parsed.method,
        host: parsed.host,
        port: parsed.port,
        allowed: parsed.allowed,
        reason: parsed.reason,
        status: parsed.status,
        bytesOut: parsed.bytesOut,
        bytesIn: parsed.bytesIn,
        at: parsed.at,
      });
    }
  }

  /** Stops squid and the log reader (the network and firewall rule stay for the next start). */
  async close(): Promise<void> {
    clearInterval(this.tail);
    this.tail = undefined;
    const squid = this.squid;
    this.squid = null;
    this.starting = null;
    if (squid && squid.exitCode === null) {
      const exited = new Promise((resolve) => squid.once("exit", resolve));
      squid.kill("SIGTERM");
      const timer = setTimeout(() => squid.kill("SIGKILL"), 3_000);
      await exited;
      clearTimeout(timer);
    }
    this.readLog();
  }
}
