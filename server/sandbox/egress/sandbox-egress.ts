import "server-only";
import type Docker from "dockerode";
import type { Logger } from "pino";
import {
  type EgressMode,
  type EgressPhase,
  type EgressSettings,
  proxyRuleFor,
} from "@/server/domain/vocabulary/egress";
import type { EgressRestore } from "@/server/domain/vocabulary/egress-restore";
import type { EgressNetwork } from "../container-spec";
import type { EgressApplied, EgressRecords } from "../types";
import { type EgressGate, proxyEnv } from "./internal-network";

const BRIDGE = "bridge";
const OFF = { mode: "off", getHeadOnly: false } as const;
const ALL_OFF: EgressSettings = { setup: OFF, agent: OFF, allowList: [] };
const PROXY_VARIABLES = proxyEnv("").map((line) => line.slice(0, line.indexOf("=")));

/**
 * A session container's network per phase. The container is made on the internal egress network
 * (or the default bridge when only Open is wanted and the proxy is unavailable); each phase then
 * connects or disconnects it: Off leaves it with no network at all (only loopback), a registry or
 * custom list keeps it on the internal network with its rule in the proxy, Open adds the bridge.
 * Anything that cannot be done as asked ends as Off, with the reason: never more network than asked.
 */
export class SandboxEgress {
  /**
   * Sessions whose phase this process holds: given back from the record (settled or under way), or
   * set by this process itself. A proxy's rules live in its process's memory only, so a session missing
   * here has no rule in this process's proxy even though its container may be running.
   */
  private readonly held = new Map<string, Promise<void>>();

  /**
   * The proxy variables of this process's proxy, per session whose container now sits on this
   * process's egress network with its rule set. Every process started in it gets them (DockerSandbox's
   * commands, the terminal, MCP servers), over the ones baked into the container when it was made: a run
   * taken over from another instance has that instance's gateway there, which it no longer reaches.
   */
  private readonly execEnvs = new Map<string, Record<string, string>>();

  constructor(
    private readonly docker: Docker,
    private readonly proxy: EgressGate | null,
    private readonly log: Logger,
    private readonly records: EgressRecords | null = null,
  ) {}

  /** From now on this process sets the session's phase itself: nothing recorded is given back over it. */
  hold(sessionId: string): void {
    if (!this.held.has(sessionId)) this.held.set(sessionId, Promise.resolve());
  }

  /**
   * The first use in this process of a session's existing container (after a restart, or a run taken
   * over from another instance) gives it back the phase its log recorded, narrowed to the project's
   * settings now, before anything runs in it; later uses wait for the same restore. Fails closed: a
   * record that cannot be read, or a phase that cannot be applied, leaves the sandbox Off, and if even
   * that fails the error reaches the caller (and the next use tries again).
   */
  restoreOnce(sessionId: string, containerId: string): Promise<void> {
    if (!this.records) return Promise.resolve();
    let restoring = this.held.get(sessionId);
    if (!restoring) {
      restoring = this.restore(this.records, sessionId, containerId).catch((error: unknown) => {
        this.held.delete(sessionId);
        throw error;
      });
      this.held.set(sessionId, restoring);
    }
    return restoring;
  }

  private async restore(records: EgressRecords, sessionId: string, containerId: string): Promise<void> {
    const plan: EgressRestore | null = await records.restoreFor(sessionId).catch((error: unknown) => ({
      phase: "agent" as const,
      settings: ALL_OFF,
      problem: `After a server restart the sandbox's recorded network could not be read (${error instanceof Error ? error.message : String(error)}): it runs Off.`,
    }));
    if (!plan) {
      // Nothing recorded (the instance that made the container died before its phase reached the log):
      // no phase to give back, but another instance's egress network must not stay reachable either.
      await this.leaveOtherEgressNetworks(containerId);
      return;
    }
    let applied: EgressApplied;
    let settings = plan.settings;
    try {
      applied = await this.apply(containerId, sessionId, plan.phase, settings);
    } catch (error) {
      settings = ALL_OFF;
      applied = {
        ...(await this.apply(containerId, sessionId, plan.phase, settings)),
        requested: plan.settings[plan.phase].mode,
        problem: `After a server restart the sandbox's network could not be given back (${error instanceof Error ? error.message : String(error)}): it runs Off.`,
      };
    }
    const restored = { ...applied, problem: applied.problem ?? plan.problem };
    this.log.info({ sessionId, ...restored }, "egress phase given back after a restart");
    await records
      .restored(sessionId, restored, settings)
      .catch((error: unknown) =>
        this.log.error({ err: error, sessionId }, "could not record the egress phase given back"),
      );
  }

  /** Extra environment for every process started in the session's container (none: as it was made). */
  execEnvFor(sessionId: string): Record<string, string> {
    return this.execEnvs.get(sessionId) ?? {};
  }

  /** The network a new container starts on; undefined when it needs none (Off in both phases). */
  async networkFor(settings: EgressSettings | undefined): Promise<EgressNetwork | "bridge" | undefined> {
    if (!settings) return undefined;
    const modes = [settings.setup.mode, settings.agent.mode];
    if (modes.every((mode) => mode === "off")) return undefined;
    if (this.proxy) {
      try {
        await this.proxy.start();
        return { name: this.proxy.networkName, env: this.proxy.containerEnv() };
      } catch (error) {
        this.log.warn(
          { err: error instanceof Error ? error.message : String(error) },
          "egress proxy unavailable",
        );
      }
    }
    return modes.includes("open") ? BRIDGE : undefined;
  }

  /** Puts the container in `phase`'s network and says what it got. */
  async apply(
    containerId: string,
    sessionId: string,
    phase: EgressPhase,
    settings: EgressSettings,
  ): Promise<EgressApplied> {
    const requested = settings[phase].mode;
    const result = (applied: EgressMode, problem: string | null = null): EgressApplied => ({
      phase,
      requested,
      applied,
      problem,
    });
    const container = this.docker.getContainer(containerId);
    const info = await container.inspect();
    this.proxy?.clearSession(sessionId);
    this.execEnvs.delete(sessionId);
    // Made on an egress network (this process's or another instance's): its tools expect a proxy.
    const madeForProxy = (info.Config.Env ?? []).some((line) => line.startsWith("HTTP_PROXY="));
    if (info.HostConfig.NetworkMode === "none") {
      return result(
        "off",
        requested === "off"
          ? null
          : "This sandbox was made without a network (the egress proxy was unavailable or the setting changed after it was made).",
      );
    }
    const joined = new Set(Object.keys(info.NetworkSettings.Networks ?? {}));
    const leave = async (network: string) => {
      if (!joined.has(network)) return;
      await this.docker.getNetwork(network).disconnect({ Container: containerId, Force: true });
      joined.delete(network);
    };
    const join = async (network: string) => {
      if (joined.has(network)) return;
      await this.docker.getNetwork(network).connect({ Container: containerId });
      joined.add(network);
    };
    const leaveAll = async () => {
      for (const network of [...joined]) await leave(network);
    };
    const internal = this.proxy?.networkName;
    for (const network of [...joined]) if (this.isOtherEgressNetwork(network)) await leave(network);
    if (requested === "off") {
      await leaveAll();
      return result("off");
    }
    if (requested === "open") {
      await join(BRIDGE);
      // Taken over from another instance: back on a proxy (this process's), or its proxy variables lead
      // nowhere. If this proxy cannot start, the bridge alone is still Open.
      if (internal && madeForProxy && !joined.has(internal))
        await this.proxy
          ?.start()
          .then(() => join(internal))
          .catch((error: unknown) =>
            this.log.warn({ sessionId, err: String(error) }, "open phase without this instance's proxy"),
          );
      if (internal && joined.has(internal)) {
        await this.ruleFor(container, internal, sessionId, phase, "open");
        this.pointAtOwnProxy(sessionId);
      } else if (madeForProxy) {
        // Its variables name a proxy it cannot reach: blank them, so its tools go out the bridge as Open.
        this.execEnvs.set(sessionId, Object.fromEntries(PROXY_VARIABLES.map((name) => [name, ""])));
      }
      return result("open");
    }
    if (!this.proxy || !internal) {
      await leaveAll();
      return result("off", "No egress proxy is configured on this server: the phase runs without network.");
    }
    try {
      await this.proxy.start();
    } catch (error) {
      await leaveAll();
      return result("off", error instanceof Error ? error.message : String(error));
    }
    await leave(BRIDGE);
    await join(internal);
    const rule = proxyRuleFor(settings[phase], settings.allowList);
    await this.ruleFor(container, internal, sessionId, phase, rule);
    // Also a container made on the bridge alone (this or another instance's proxy was down then): with
    // no variables its tools would not find the proxy, the only way out it now has.
    this.pointAtOwnProxy(sessionId);
    return result(requested);
  }

  /**
   * A container another instance made (a run taken over in a cluster) is still on that instance's
   * egress network, whose squid keeps rules this process can neither read nor narrow: it must leave, so
   * the only proxy the sandbox can reach is this process's (or none: fail closed), never a stale one.
   */
  private isOtherEgressNetwork(network: string): boolean {
    return network !== this.proxy?.networkName && network !== BRIDGE;
  }

  private async leaveOtherEgressNetworks(containerId: string): Promise<void> {
    const info = await this.docker.getContainer(containerId).inspect();
    if (info.HostConfig.NetworkMode === "none") return;
    for (const network of Object.keys(info.NetworkSettings.Networks ?? {}))
      if (this.isOtherEgressNetwork(network))
        await this.docker.getNetwork(network).disconnect({ Container: containerId, Force: true });
  }

  /**
   * The session's processes reach the proxy this process runs (its rules are the ones just set). A proxy
   * not started here has no address yet: the container keeps the variables it was made with, which on
   * this instance's own network (a restart) lead to the same place.
   */
  private pointAtOwnProxy(sessionId: string): void {
    let env: string[];
    try {
      env = this.proxy?.containerEnv() ?? [];
    } catch {
      return;
    }
    const pairs = env.map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]);
    this.execEnvs.set(sessionId, Object.fromEntries(pairs));
  }

  private async ruleFor(
    container: Docker.Container,
    network: string,
    sessionId: string,
    phase: EgressPhase,
    rule: Parameters<EgressGate["setRule"]>[2],
  ): Promise<void> {
    const address = (await container.inspect()).NetworkSettings.Networks?.[network]?.IPAddress;
    if (!address) throw new Error(`The sandbox has no address on ${network}.`);
    await this.proxy?.setRule(address, { sessionId, phase }, rule);
  }

  /** The session's container is gone: its rules go too. */
  forget(sessionId: string): void {
    this.held.delete(sessionId);
    this.execEnvs.delete(sessionId);
    this.proxy?.clearSession(sessionId);
  }
}
