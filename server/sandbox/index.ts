import "server-only";
import path from "node:path";
import Docker from "dockerode";
import { parseDockerHosts } from "@/server/domain/vocabulary/docker-hosts";
import { env, isPostgresUrl } from "@/server/env";
import { logger } from "@/server/logger";
import { DockerSandboxProvider } from "./docker-provider";
import { type EgressConnection, EgressProxy } from "./egress/egress-proxy";
import type { EgressGate } from "./egress/internal-network";
import { type EgressInterruption, RemoteEgressProxy } from "./egress/remote-egress-proxy";
import { dockerClientFor } from "./hosts/docker-host";
import { type HostPins, MultiHostSandboxProvider } from "./hosts/multi-host-provider";
import { sandboxOwnerLabel } from "./instance-label";
import { serverResourcePolicy } from "./resource-policy";
import { effectiveResources, limitsOf } from "./resources";
import type { EgressRecords, SandboxProvider } from "./types";

export { DockerSandboxProvider } from "./docker-provider";
export * from "./types";

/**
 * The process-wide provider, created on first use. Kept on globalThis because Next.js loads route
 * handlers and instrumentation as separate bundles, which must share one provider.
 */
const globalForSandbox = globalThis as unknown as { arborSandboxProvider?: SandboxProvider };

/** Where the egress proxy's connections go: app-context records them in the session's log. */
const egressListeners = new Set<(connection: EgressConnection) => void>();
export function onEgressConnection(listener: (connection: EgressConnection) => void): void {
  egressListeners.add(listener);
}

/**
 * Where squid's config, helper, rules and logs live. As root, squid runs as Debian's `proxy` user,
 * which cannot enter the data directory (0700, see server/data-dir/private-files.ts): its files go
 * to a directory of their own under /run. Without root squid runs as this user, in the data directory.
 */
function egressStateDir(instance: string): string {
  return process.getuid?.() === 0
    ? path.join("/run", `arbor-egress-${instance}`)
    : path.join(env.dataDir, "egress", instance);
}

const globalForProxy = globalThis as unknown as { arborEgressProxy?: EgressProxy | null };

/** The process-wide egress proxy (null when ARBOR_EGRESS_PROXY is off): sandboxes and image builds share it. */
export function getEgressProxy(): EgressProxy | null {
  if (globalForProxy.arborEgressProxy !== undefined) return globalForProxy.arborEgressProxy;
  const instance = ownerLabel();
  globalForProxy.arborEgressProxy =
    env.ARBOR_EGRESS_PROXY === "on"
      ? new EgressProxy({
          docker: new Docker(),
          instance,
          stateDir: egressStateDir(instance),
          port: env.ARBOR_EGRESS_PROXY_PORT,
          upstream: env.upstreamProxy,
          log: logger,
          onConnection: (connection) => {
            for (const listener of egressListeners) listener(connection);
          },
        })
      : null;
  return globalForProxy.arborEgressProxy;
}

/**
 * The process-wide provider. Without ARBOR_DOCKER_HOSTS: one provider on the local engine, as always.
 * With it: one provider per host behind a MultiHostSandboxProvider, which places each session and
 * records its host through `pins` (the Session row).
 */
export function getSandboxProvider(pins?: HostPins): SandboxProvider {
  if (globalForSandbox.arborSandboxProvider) return globalForSandbox.arborSandboxProvider;
  if (env.ARBOR_DOCKER_HOSTS === undefined) {
    globalForSandbox.arborSandboxProvider = providerOn(new Docker(), getEgressProxy());
    return globalForSandbox.arborSandboxProvider;
  }
  if (!pins) throw new Error("ARBOR_DOCKER_HOSTS needs the sessions' host pins (see app-context)");
  const configs = parseDockerHosts(env.ARBOR_DOCKER_HOSTS);
  const clients = configs.map((config) => ({ config, docker: dockerClientFor(config) }));
  const firstClient = clients[0];
  if (!firstClient) throw new Error("ARBOR_DOCKER_HOSTS lists no host");
  // Images are built on (and copied from) the local engine when it is listed, else the first host.
  const imageSource = (clients.find((host) => host.config.kind === "local") ?? firstClient).docker;
  const hosts = clients.map(({ config, docker }) => {
    // The local engine's sandboxes use the server's squid; another host's use squid as a container
    // there (remote-egress-proxy.ts), with the egress image copied from the image source.
    const egress =
      config.kind === "local" ? getEgressProxy() : remoteEgressProxyOn(docker, imageSource, config.id);
    const provider = providerOn(docker, egress);
    // Another host's squid container is made again on the health interval when it stopped.
    return egress instanceof RemoteEgressProxy
      ? { config, docker, provider, egress }
      : { config, docker, provider };
  });
  const first = hosts[0];
  if (!first) throw new Error("ARBOR_DOCKER_HOSTS lists no host");
  const multi = new MultiHostSandboxProvider({
    hosts,
    pins,
    imageSource,
    instance: ownerLabel(),
    healthIntervalMs: env.ARBOR_DOCKER_HOST_CHECK_MS,
    log: logger,
  });
  multi.startHealthChecks();
  globalForSandbox.arborSandboxProvider = multi;
  return multi;
}

function ownerLabel(): string {
  return sandboxOwnerLabel({
    databaseUrl: env.DATABASE_URL,
    dataDir: env.dataDir,
    cluster: isPostgresUrl(env.DATABASE_URL),
  });
}

/** Where another host's proxy says a session's phase lost its network or got it back. */
const interruptionListeners = new Set<(interruption: EgressInterruption & { host: string }) => void>();
export function onEgressInterruption(
  listener: (interruption: EgressInterruption & { host: string }) => void,
): void {
  interruptionListeners.add(listener);
}

/** The egress proxy of another Docker host (null when ARBOR_EGRESS_PROXY is off). */
function remoteEgressProxyOn(docker: Docker, imageSource: Docker, hostId: string): RemoteEgressProxy | null {
  if (env.ARBOR_EGRESS_PROXY !== "on") return null;
  return new RemoteEgressProxy({
    docker,
    imageSource,
    image: env.ARBOR_EGRESS_IMAGE,
    instance: ownerLabel(),
    port: env.ARBOR_EGRESS_PROXY_PORT,
    upstream: env.upstreamProxy,
    log: logger.child({ dockerHost: hostId }),
    onConnection: (connection) => {
      for (const listener of egressListeners) listener(connection);
    },
    onInterruption: (interruption) => {
      for (const listener of interruptionListeners) listener({ ...interruption, host: hostId });
    },
  });
}

/** Where the app's records of sessions' phases are (app-context sets them; on globalThis like the provider). */
const globalForRecords = globalThis as unknown as { arborEgressRecords?: EgressRecords };
export function setEgressRecords(records: EgressRecords): void {
  globalForRecords.arborEgressRecords = records;
}

/** The process's records, read when a sandbox is first used (app-context has set them by then). */
const processEgressRecords: EgressRecords = {
  restoreFor: async (sessionId) => globalForRecords.arborEgressRecords?.restoreFor(sessionId) ?? null,
  restored: async (sessionId, applied, settings) =>
    globalForRecords.arborEgressRecords?.restored(sessionId, applied, settings),
};

function providerOn(docker: Docker, egress: EgressGate | null): DockerSandboxProvider {
  return new DockerSandboxProvider({
    docker,
    ...(egress ? { egress } : {}),
    egressRecords: processEgressRecords,
    image: env.ARBOR_SANDBOX_IMAGE,
    defaultTimeoutMs: env.ARBOR_COMMAND_TIMEOUT_MS,
    // One owner per database (per instance in a cluster): servers sharing an engine never sweep each
    // other's sandboxes.
    instance: ownerLabel(),
    // Opt-in: pool containers outlive the process (the next start of the same database adopts them),
    // so a throwaway database (an e2e run) would leave them behind.
    poolSize: env.ARBOR_SANDBOX_POOL_SIZE,
    // The server's default limits: the warm pool's containers have these; a project's own differ.
    limits: limitsOf(effectiveResources({}, serverResourcePolicy())),
  });
}
