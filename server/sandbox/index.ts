import { createHash } from "node:crypto";
import { env } from "@/server/env";
import { DockerSandboxProvider } from "./docker-provider";
import { serverResourcePolicy } from "./resource-policy";
import { effectiveResources, limitsOf } from "./resources";
import type { SandboxProvider } from "./types";

export { DockerSandboxProvider } from "./docker-provider";
export { shellQuote } from "./shell";
export * from "./types";

/**
 * The process-wide provider, created on first use. Kept on globalThis because Next.js loads route
 * handlers and instrumentation as separate bundles, which must share one provider.
 */
const globalForSandbox = globalThis as unknown as { arborSandboxProvider?: SandboxProvider };

export function getSandboxProvider(): SandboxProvider {
  globalForSandbox.arborSandboxProvider ??= new DockerSandboxProvider({
    image: env.ARBOR_SANDBOX_IMAGE,
    defaultTimeoutMs: env.ARBOR_COMMAND_TIMEOUT_MS,
    // One owner per database: servers sharing an engine never sweep each other's sandboxes.
    instance: createHash("sha256").update(env.DATABASE_URL).digest("hex").slice(0, 12),
    // Opt-in: pool containers outlive the process (the next start of the same database adopts them),
    // so a throwaway database (an e2e run) would leave them behind.
    poolSize: env.ARBOR_SANDBOX_POOL_SIZE,
    // The server's default limits: the warm pool's containers have these; a project's own differ.
    limits: limitsOf(effectiveResources({}, serverResourcePolicy())),
  });
  return globalForSandbox.arborSandboxProvider;
}
