import "server-only";
import { randomBytes } from "node:crypto";
import { type EgressSettings, proxyRuleFor } from "@/server/domain/vocabulary/egress";
import type { EgressProxy } from "../egress/egress-proxy";

/** How a project image's build reaches the network: the engine's `networkmode` and proxy build args. */
export interface BuildNetwork {
  networkMode: string;
  buildArgs: Record<string, string>;
  /** One line for the build log: what the build's RUN steps may reach. */
  note: string;
  /** Ends the build's proxy rule (call when the build ends, whatever happened). */
  release(): void;
}

/**
 * A project's Dockerfile builds under its setup phase's egress policy (it runs the project's code,
 * like the setup command): Off → no network at all; a registry or custom list → only Arbor's internal
 * network, whose one way out is the egress proxy, with a rule keyed by a one-build token the RUN
 * steps present as the proxy URL's password (their addresses are not known in advance); Open → the
 * engine's default bridge. Without a proxy, anything but Open builds with no network: never more
 * than asked.
 */
export async function buildNetworkFor(
  settings: EgressSettings,
  proxy: EgressProxy | null,
): Promise<BuildNetwork> {
  const phase = settings.setup;
  const none = (note: string): BuildNetwork => ({
    networkMode: "none",
    buildArgs: {},
    note,
    release: () => undefined,
  });
  if (phase.mode === "open")
    return {
      networkMode: "bridge",
      buildArgs: {},
      note: "Network: Open (the project's setup phase).",
      release: () => undefined,
    };
  const rule = proxyRuleFor(phase, settings.allowList);
  if (phase.mode === "off" || !rule)
    return none("Network: Off (the project's setup phase): RUN steps have none.");
  if (!proxy)
    return none("Network: none (no egress proxy on this server; the setup phase's list cannot be applied).");
  try {
    await proxy.start();
  } catch (error) {
    return none(
      `Network: none (the egress proxy could not start: ${error instanceof Error ? error.message : String(error)}).`,
    );
  }
  const token = randomBytes(24).toString("hex");
  proxy.setTokenRule(token, rule);
  const url = proxy.urlWithToken(token);
  return {
    networkMode: proxy.networkName,
    // Docker's predefined proxy build arguments: usable without an ARG line, left out of the image's history.
    buildArgs: {
      HTTP_PROXY: url,
      HTTPS_PROXY: url,
      http_proxy: url,
      https_proxy: url,
      NO_PROXY: "localhost,127.0.0.1",
      no_proxy: "localhost,127.0.0.1",
    },
    note: `Network: the setup phase's allow-list (${phase.mode === "registries" ? "package registries only" : "custom list"}), through Arbor's egress proxy only.`,
    release: () => proxy.setTokenRule(token, null),
  };
}
