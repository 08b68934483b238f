import "server-only";
import path from "node:path";
import Docker from "dockerode";
import { env, isPostgresUrl } from "@/server/env";
import { logger } from "@/server/logger";
import { DockerSandboxProvider } from "./docker-provider";
import { type EgressConnection, EgressProxy } from "./egress/egress-proxy";
import { sandboxOwnerLabel } from "./instance-label";
import { serverResourcePolicy } from "./resource-policy";
import { effectiveResources, limitsOf } from "./resources";
import type { SandboxProvider } from "./types";

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

function ownerLabel(): string {
  return sandboxOwnerLabel({
    databaseUrl: env.DATABASE_URL,
    dataDir: env.dataDir,
    cluster: isPostgresUrl(env.DATABASE_URL),
  });
}

export function getSandboxProvider(): SandboxProvider {
  const instance = ownerLabel();
  const docker = new Docker();
  const egress = getEgressProxy();
  globalForSandbox.arborSandboxProvider ??= new DockerSandboxProvider({
    docker,
    ...(egress ? { egress } : {}),
    image: env.ARBOR_SANDBOX_IMAGE,
    defaultTimeoutMs: env.ARBOR_COMMAND_TIMEOUT_MS,
    // One owner per database (per instance in a cluster): servers sharing an engine never sweep each
    // other's sandboxes.
    instance,
    // Opt-in: pool containers outlive the process (the next start of the same database adopts them),
    // so a throwaway database (an e2e run) would leave them behind.
    poolSize: env.ARBOR_SANDBOX_POOL_SIZE,
    // The server's default limits: the warm pool's containers have these; a project's own differ.
    limits: limitsOf(effectiveResources({}, serverResourcePolicy())),
  });
  return globalForSandbox.arborSandboxProvider;
}
