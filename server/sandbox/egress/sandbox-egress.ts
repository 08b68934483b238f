import "server-only";
import type Docker from "dockerode";
import type { Logger } from "pino";
import {
  type EgressMode,
  type EgressPhase,
  type EgressSettings,
  proxyRuleFor,
} from "@/server/domain/vocabulary/egress";
import type { EgressNetwork } from "../container-spec";
import type { EgressApplied } from "../types";
import type { EgressGate } from "./internal-network";

const BRIDGE = "bridge";

/**
 * A session container's network per phase. The container is made on the internal egress network
 * (or the default bridge when only Open is wanted and the proxy is unavailable); each phase then
 * connects or disconnects it: Off leaves it with no network at all (only loopback), a registry or
 * custom list keeps it on the internal network with its rule in the proxy, Open adds the bridge.
 * Anything that cannot be done as asked ends as Off, with the reason: never more network than asked.
 */
export class SandboxEgress {
  constructor(
    private readonly docker: Docker,
    private readonly proxy: EgressGate | null,
    private readonly log: Logger,
  ) {}

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
    if (requested === "off") {
      await leaveAll();
      return result("off");
    }
    if (requested === "open") {
      await join(BRIDGE);
      if (internal && joined.has(internal)) await this.ruleFor(container, internal, sessionId, phase, "open");
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
    return result(requested);
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
    this.proxy?.clearSession(sessionId);
  }
}
