import "server-only";
import { createHash } from "node:crypto";
import type Docker from "dockerode";
import type { EgressPhase, ProxyRule } from "@/server/domain/vocabulary/egress";
import { LABEL_INSTANCE, LABEL_MANAGED } from "../container-spec";

/** Thrown when a session's network cannot be given as asked: the caller runs the phase Off. */
export class EgressUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "EgressUnavailableError";
  }
}

/** The egress network's and its bridge's names for an owner (the same on every engine). */
export function egressNames(instance: string): { networkName: string; bridgeName: string } {
  const suffix = createHash("sha256").update(instance).digest("hex").slice(0, 8);
  return { networkName: `arbor-egress-${suffix}`, bridgeName: `arbeg-${suffix}` };
}

/** Environment of a container that reaches the world only through the proxy at `url`. */
export function proxyEnv(url: string): string[] {
  return [
    `HTTP_PROXY=${url}`,
    `HTTPS_PROXY=${url}`,
    `http_proxy=${url}`,
    `https_proxy=${url}`,
    "NO_PROXY=localhost,127.0.0.1",
    "no_proxy=localhost,127.0.0.1",
    `npm_config_proxy=${url}`,
    `npm_config_https_proxy=${url}`,
    `PIP_PROXY=${url}`,
    `YARN_HTTP_PROXY=${url}`,
    `YARN_HTTPS_PROXY=${url}`,
  ];
}

/** The internal network (created when missing) on `docker` and its gateway address, where squid listens. */
export async function ensureInternalNetwork(
  docker: Docker,
  names: { networkName: string; bridgeName: string },
  instance: string,
): Promise<string> {
  let info: Docker.NetworkInspectInfo;
  try {
    info = await docker.getNetwork(names.networkName).inspect();
  } catch {
    await docker.createNetwork({
      Name: names.networkName,
      Driver: "bridge",
      Internal: true,
      CheckDuplicate: true,
      Labels: { [LABEL_MANAGED]: "true", [LABEL_INSTANCE]: instance },
      Options: {
        "com.docker.network.bridge.name": names.bridgeName,
        // Sandboxes on this network cannot reach each other, only the gateway (the proxy).
        "com.docker.network.bridge.enable_icc": "false",
      },
    });
    info = await docker.getNetwork(names.networkName).inspect();
  }
  if (!info.Internal)
    throw new EgressUnavailableError(`Network ${names.networkName} exists but is not internal.`);
  const gateway = info.IPAM?.Config?.[0]?.Gateway;
  if (!gateway) throw new EgressUnavailableError(`Network ${names.networkName} has no gateway address.`);
  return gateway;
}

/** Who an address on the egress network belongs to: the session and its phase. */
export interface EgressHolder {
  sessionId: string;
  phase: EgressPhase;
}

/**
 * What a session container's network needs from a proxy, on the server's own engine (EgressProxy,
 * squid as a process) or on another Docker host (RemoteEgressProxy, squid as a container there).
 */
export interface EgressGate {
  readonly networkName: string;
  start(): Promise<void>;
  containerEnv(): string[];
  setRule(address: string, holder: EgressHolder, rule: ProxyRule | "open" | null): void | Promise<void>;
  clearSession(sessionId: string): void;
}
