import "server-only";
import { PassThrough } from "node:stream";
import type Docker from "dockerode";
import type { Logger } from "pino";
import type { ProxyRule } from "@/server/domain/vocabulary/egress";
import { runInContainer } from "../docker-exec";
import { copyImageByName } from "../hosts/docker-host";
import { parseAccessLogLine } from "./access-log";
import type { EgressConnection } from "./egress-proxy";
import { firewallRules } from "./host-firewall";
import {
  type EgressGate,
  type EgressHolder,
  EgressUnavailableError,
  egressNames,
  ensureInternalNetwork,
  proxyEnv,
} from "./internal-network";
import { HELPER_SOURCE, squidConfig } from "./squid-config";

export const DEFAULT_EGRESS_IMAGE = "arbor-egress:latest";
const DIR = "/arbor-egress";
/** The label on the proxy container (not LABEL_MANAGED: the sandbox sweep must never take it). */
const LABEL_EGRESS = "arbor.egress-proxy";

export interface RemoteEgressProxyOptions {
  /** The remote host's engine. */
  docker: Docker;
  /** The engine the egress image is copied from (built there by egress-image/build.sh). */
  imageSource: Docker;
  image?: string;
  instance: string;
  port: number;
  upstream: { host: string; port: number } | null;
  log: Logger;
  onConnection?: (connection: EgressConnection) => void;
  /** A session's phase lost its proxy (`down`) or got it back without a phase change (`back`). */
  onInterruption?: (interruption: EgressInterruption) => void;
}

export interface EgressInterruption extends EgressHolder {
  state: "down" | "back";
  message: string;
}

type StoredRule = ProxyRule & EgressHolder & { open?: boolean };

/**
 * The egress proxy of a Docker host other than the server's: the same squid, config, rules helper and
 * firewall rules as EgressProxy, run as a container with the host's network (squid binds to the internal
 * network's gateway there, the host's INPUT chain gets the same two rules). The server writes the config,
 * helper and rules into it by exec and reads the access log from the container's output. Any failure
 * is an EgressUnavailableError: the sandbox's phase then runs Off, never Open.
 */
export class RemoteEgressProxy implements EgressGate {
  readonly networkName: string;
  readonly bridgeName: string;
  private gateway: string | null = null;
  /** The gateway the firewall rules name, kept after a stop so destroy() can remove them. */
  private ruleGateway: string | null = null;
  private container: Docker.Container | null = null;
  private starting: Promise<void> | null = null;
  private readonly rules = new Map<string, StoredRule>();
  private readonly owners = new Map<string, EgressHolder>();
  private writing: Promise<void> = Promise.resolve();
  private logStream: NodeJS.ReadableStream | null = null;
  /** Set once it has run: from then on heal() keeps the container alive (until destroy()). */
  private wanted = false;
  /** Why the proxy is down (its container stopped after it had started); null while it runs. */
  private down: string | null = null;
  private healing: Promise<void> | null = null;

  constructor(private readonly options: RemoteEgressProxyOptions) {
    ({ networkName: this.networkName, bridgeName: this.bridgeName } = egressNames(options.instance));
  }

  get containerName(): string {
    return `${this.networkName}-proxy`;
  }

  containerEnv(): string[] {
    if (!this.gateway) throw new EgressUnavailableError("The egress proxy is not started.");
    return proxyEnv(`http://${this.gateway}:${this.options.port}`);
  }

  start(): Promise<void> {
    this.starting ??= this.startOnce().catch((error: unknown) => {
      this.starting = null;
      throw error instanceof EgressUnavailableError
        ? error
        : new EgressUnavailableError(
            `The egress proxy on this Docker host could not start: ${error instanceof Error ? error.message : String(error)}`,
            { cause: error },
          );
    });
    return this.starting;
  }

  private async startOnce(): Promise<void> {
    const { docker } = this.options;
    const image = this.options.image ?? DEFAULT_EGRESS_IMAGE;
    await copyImageByName(docker, this.options.imageSource, image);
    const gateway = await ensureInternalNetwork(docker, this, this.options.instance);
    this.ruleGateway = gateway;
    await docker
      .getContainer(this.containerName)
      .remove({ force: true })
      .catch(() => undefined);
    const container = await docker.createContainer({
      name: this.containerName,
      Image: image,
      User: "0",
      Labels: { [LABEL_EGRESS]: this.options.instance },
      Cmd: ["bash", "-c", startScript(this.bridgeName, gateway, this.options.port)],
      HostConfig: {
        NetworkMode: "host",
        // iptables on the host's INPUT chain; squid drops to its own user.
        CapDrop: ["ALL"],
        CapAdd: ["NET_ADMIN", "NET_RAW", "SETUID", "SETGID", "CHOWN", "DAC_OVERRIDE", "KILL"],
        SecurityOpt: ["no-new-privileges"],
        RestartPolicy: { Name: "no" },
      },
    });
    this.container = container;
    await container.start();
    const ownAddresses = await hostAddressesOf(container);
    const config = squidConfig({
      listen: { address: gateway, port: this.options.port },
      stateDir: DIR,
      nodePath: "/opt/node/bin/node",
      helperPath: `${DIR}/rules-helper.cjs`,
      rulesPath: `${DIR}/rules.json`,
      // The remote host's own addresses (every interface it has), as the local squid refuses the server's.
      hostAddresses: ownAddresses,
      upstream: this.options.upstream,
      effectiveUser: "proxy",
    });
    await this.writeFile("rules-helper.cjs", HELPER_SOURCE);
    await this.writeFile("rules.json", this.rulesJson());
    // Written last: the start script waits for it, then installs the firewall and starts squid.
    await this.writeFile("squid.conf", config);
    await this.followLog(container);
    await this.waitListening(container, gateway);
    this.gateway = gateway;
    this.wanted = true;
    this.options.log.info(
      { network: this.networkName, gateway, hostAddresses: ownAddresses.length },
      "remote egress proxy started",
    );
    if (this.down !== null) {
      this.down = null;
      this.announce("back", "The egress proxy on this Docker host runs again: the phase's network is back.");
    }
  }

  /**
   * Called on the host's health interval: a proxy that was started and whose container stopped or
   * went missing is made again with the rules it has, so running sandboxes get their network back
   * without a phase change (their addresses on the internal network do not change). While it is down
   * nothing gets out: the sandboxes are on an internal network whose only way out is squid's port.
   */
  heal(): Promise<void> {
    if (!this.wanted) return Promise.resolve();
    this.healing ??= this.healOnce().finally(() => {
      this.healing = null;
    });
    return this.healing;
  }

  private async healOnce(): Promise<void> {
    if (this.starting) await this.starting.catch(() => undefined);
    if (this.down === null && this.container) {
      const running = await this.container.inspect().then(
        (info) => info.State.Running,
        (error: unknown) => ((error as { statusCode?: number }).statusCode === 404 ? false : null),
      );
      // null: the engine did not answer; the host's own health check says so, nothing to make again.
      if (running !== false) return;
      this.stopped(this.container, "its container is gone");
    }
    await this.start().catch((error: unknown) =>
      this.options.log.error({ err: String(error) }, "remote egress proxy could not be made again"),
    );
  }

  /** The container stopped: the phases that go through it are down until heal() makes it again. */
  private stopped(container: Docker.Container, why: string): void {
    if (this.container !== container || this.down !== null) return;
    this.starting = null;
    this.gateway = null;
    this.down = why;
    this.options.log.error({ container: this.containerName, why }, "remote egress proxy stopped");
    this.announce(
      "down",
      `The egress proxy on this Docker host stopped (${why}): nothing gets out until it is made again.`,
    );
  }

  /** Tells each session whose phase goes through this proxy (once per session and phase). */
  private announce(state: EgressInterruption["state"], message: string): void {
    const told = new Set<string>();
    for (const [address, rule] of this.rules) {
      const key = `${rule.sessionId}|${rule.phase}`;
      // An Open phase has the engine's bridge besides: it is not down with the proxy.
      if (address.startsWith("token:") || rule.open || told.has(key)) continue;
      told.add(key);
      this.options.onInterruption?.({ sessionId: rule.sessionId, phase: rule.phase, state, message });
    }
  }

  private async waitListening(container: Docker.Container, gateway: string): Promise<void> {
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      const state = (await container.inspect()).State;
      if (!state.Running) {
        const logs = (await container.logs({ stdout: true, stderr: true, tail: 20 })).toString("utf8");
        throw new EgressUnavailableError(`squid did not start on the Docker host: ${logs.trim()}`);
      }
      const probe = await runInContainer(
        container,
        ["bash", "-c", `echo > /dev/tcp/${gateway}/${this.options.port}`],
        { deadlineMs: 3_000 },
      );
      if (probe.exitCode === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new EgressUnavailableError("squid did not listen on the Docker host within 20 s.");
  }

  /** Replaces a file in the proxy's directory atomically (the helper never reads half a rules file). */
  private async writeFile(name: string, content: string): Promise<void> {
    const container = this.container;
    if (!container) throw new EgressUnavailableError("The egress proxy is not started.");
    const result = await runInContainer(
      container,
      [
        "sh",
        "-c",
        `cat > ${DIR}/.${name}.tmp && chmod 644 ${DIR}/.${name}.tmp && mv ${DIR}/.${name}.tmp ${DIR}/${name}`,
      ],
      { stdin: content, deadlineMs: 10_000 },
    );
    if (result.exitCode !== 0)
      throw new EgressUnavailableError(`Could not write ${name} on the Docker host: ${result.stderr.trim()}`);
  }

  private rulesJson(): string {
    return JSON.stringify(Object.fromEntries(this.rules));
  }

  /** Writes of the rules file in order; a failure surfaces to the caller that made the change. */
  private pushRules(): Promise<void> {
    if (!this.container) return Promise.resolve();
    const next = this.writing
      .catch(() => undefined)
      .then(() => this.writeFile("rules.json", this.rulesJson()));
    this.writing = next;
    return next;
  }

  setRule(address: string, holder: EgressHolder, rule: ProxyRule | "open" | null): Promise<void> {
    this.owners.set(address, holder);
    if (rule === null) this.rules.delete(address);
    else if (rule === "open")
      this.rules.set(address, { ...holder, allow: [], getHeadOnly: false, open: true });
    else this.rules.set(address, { ...holder, ...rule });
    return this.pushRules();
  }

  clearSession(sessionId: string): void {
    let changed = false;
    for (const [address, rule] of this.rules)
      if (rule.sessionId === sessionId) changed = this.rules.delete(address) || changed;
    if (changed)
      this.pushRules().catch((error: unknown) =>
        this.options.log.error({ err: String(error) }, "remote egress rules not written"),
      );
  }

  /** The container's output is squid's access log (see startScript): each line becomes a connection. */
  private async followLog(container: Docker.Container): Promise<void> {
    const stream = (await container.logs({
      follow: true,
      stdout: true,
      stderr: true,
    })) as NodeJS.ReadableStream;
    this.logStream = stream;
    const out = new PassThrough();
    container.modem.demuxStream(stream, out, new PassThrough());
    let rest = "";
    // The output ends when the container stops (squid died, the host restarted): heal() on the
    // host's health interval, or the next networked phase change, makes it again with its rules.
    stream.on("end", () => this.stopped(container, "squid exited"));
    stream.on("error", () => this.stopped(container, "its output broke off"));
    out.on("data", (chunk: Buffer) => {
      const lines = (rest + chunk.toString("utf8")).split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines) this.record(line);
    });
  }

  private record(line: string): void {
    const parsed = parseAccessLogLine(line);
    const owner = parsed ? this.owners.get(parsed.client) : undefined;
    if (!parsed || !owner) return;
    const { client: _client, ...connection } = parsed;
    this.options.onConnection?.({ sessionId: owner.sessionId, phase: owner.phase, ...connection });
  }

  /** Stops following the log and removes the proxy container and the network (tests; a server keeps them). */
  async destroy(): Promise<void> {
    (this.logStream as unknown as { destroy?: () => void } | null)?.destroy?.();
    const container = this.container;
    // Forgotten first: its output ending now is not an interruption to report.
    this.container = null;
    this.wanted = false;
    this.starting = null;
    this.gateway = null;
    // Its two firewall rules go with it (the container is the only thing on that host that has iptables).
    const [accept = [], drop = []] = firewallRules(this.bridgeName, this.ruleGateway, this.options.port);
    if (container && this.ruleGateway)
      await runInContainer(
        container,
        ["bash", "-c", [accept, drop].map((rule) => `iptables -w -D ${rule.join(" ")} || true`).join("; ")],
        { deadlineMs: 5_000 },
      ).catch(() => undefined);
    await container?.remove({ force: true }).catch(() => undefined);
    await this.options.docker
      .getNetwork(this.networkName)
      .remove()
      .catch(() => undefined);
  }
}

/**
 * The host's own addresses, read with its network (the container has NetworkMode host) by the same
 * code that lists the server's (squid-process.ts hostAddresses): every interface's address. Failing
 * to read them fails the start: the proxy never runs without knowing what to refuse.
 */
async function hostAddressesOf(container: Docker.Container): Promise<string[]> {
  const script = `const os = require("node:os");
console.log(JSON.stringify(Object.values(os.networkInterfaces()).flat().filter(Boolean)
  .map((e) => (e.family === "IPv6" ? e.address : e.address + "/32"))));`;
  const result = await runInContainer(container, ["/opt/node/bin/node", "-e", script], {
    deadlineMs: 10_000,
  });
  const parsed: unknown = result.exitCode === 0 ? JSON.parse(result.stdout) : null;
  if (!Array.isArray(parsed) || parsed.length === 0 || !parsed.every((a) => typeof a === "string"))
    throw new EgressUnavailableError(`Could not read the Docker host's addresses: ${result.stderr.trim()}`);
  return parsed;
}

/**
 * The container's command: wait for the config, give the host's INPUT chain the same two rules as the
 * local proxy (fail: the container exits and the proxy is unavailable), start squid, and print the
 * access log; if squid exits, so does the container.
 */
function startScript(bridge: string, gateway: string, port: number): string {
  const [accept = [], drop = []] = firewallRules(bridge, gateway, port);
  const rule = (args: string[]) => args.join(" ");
  return [
    "set -e",
    `while [ ! -f ${DIR}/squid.conf ]; do sleep 0.1; done`,
    `while iptables -w -D ${rule(accept)} 2>/dev/null; do :; done`,
    `while iptables -w -D ${rule(drop)} 2>/dev/null; do :; done`,
    `iptables -w -I ${rule(drop)}`,
    `iptables -w -I ${rule(accept)}`,
    `: > ${DIR}/access.log`,
    `chown proxy:proxy ${DIR} ${DIR}/access.log`,
    `squid -N -f ${DIR}/squid.conf & squid_pid=$!`,
    `tail -n +1 -F ${DIR}/access.log 2>/dev/null & tail_pid=$!`,
    "wait $squid_pid || true",
    "kill $tail_pid",
    "exit 1",
  ].join("\n");
}
