import { z } from "zod";

/**
 * Network egress of a sandbox, chosen per project and apart for the setup phase and the agent phase.
 * Everything but "open" goes through Arbor's egress proxy (squid) from an internal Docker network.
 */
export const EGRESS_MODES = ["off", "registries", "custom", "open"] as const;
export const EgressMode = z.enum(EGRESS_MODES);
export type EgressMode = z.infer<typeof EgressMode>;

export const EGRESS_MODE_LABELS: Record<EgressMode, string> = {
  off: "Off",
  registries: "Package registries only",
  custom: "Custom allow-list",
  open: "Open",
};

/**
 * The hosts "Package registries only" allows, on ports 80 and 443. A leading dot allows the name and
 * every name under it. The README lists the same hosts (keep them in step).
 */
export const REGISTRY_HOSTS = [
  // npm (and corepack's pnpm/yarn downloads, pointed at the npm registry in the image)
  "registry.npmjs.org",
  "registry.yarnpkg.com",
  // PyPI
  "pypi.org",
  "files.pythonhosted.org",
  // Debian
  "deb.debian.org",
  "security.debian.org",
  // crates.io
  "crates.io",
  "index.crates.io",
  "static.crates.io",
  // Go module proxy and checksum database
  "proxy.golang.org",
  "sum.golang.org",
] as const;

/**
 * A host that is an address, not a name: dotted or bare numbers (`1.2.3.4`, `2130706433`, `0x7f.1`,
 * which resolvers read as addresses) or anything with a colon (IPv6). Shared with the squid helper.
 */
export const RAW_IP_PATTERN = /^\[|:|^[0-9.]+$|^0x[0-9a-f.x]*$/i;

export function isRawIp(host: string): boolean {
  return RAW_IP_PATTERN.test(host);
}

const HOST_PATTERN = /^(\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** One allow-list entry: `host`, `.domain` (the name and everything under it) or either with `:port`. */
export const AllowEntry = z
  .string()
  .trim()
  .toLowerCase()
  .refine((entry) => {
    const [host = "", port, extra] = entry.split(":");
    if (extra !== undefined) return false;
    if (port !== undefined && !/^[0-9]{1,5}$/.test(port)) return false;
    if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return false;
    return HOST_PATTERN.test(host) && !isRawIp(host.replace(/^\./, ""));
  }, "An allow-list entry is a host name (`example.com`), a domain with a leading dot (`.example.com`) or either with `:port`; raw IP addresses are never allowed.");

export const EgressPhasePolicy = z.object({
  mode: EgressMode,
  /** Only GET and HEAD (plain HTTP only: an HTTPS tunnel's requests cannot be seen, so CONNECT is refused). */
  getHeadOnly: z.boolean().default(false),
});
export type EgressPhasePolicy = z.infer<typeof EgressPhasePolicy>;

/** A project's network settings, as stored (JSON) and edited. */
export const EgressSettings = z.object({
  setup: EgressPhasePolicy.default({ mode: "registries", getHeadOnly: false }),
  agent: EgressPhasePolicy.default({ mode: "off", getHeadOnly: false }),
  allowList: z.array(AllowEntry).max(200).default([]),
});
export type EgressSettings = z.infer<typeof EgressSettings>;

export const DEFAULT_EGRESS: EgressSettings = EgressSettings.parse({});

export type EgressPhase = "setup" | "agent";

/** What the proxy enforces for one container in one phase: the expanded allow-list. */
export interface ProxyRule {
  /** Host patterns: `name` exact, `.name` the name and below, with an optional `:port`. */
  allow: string[];
  getHeadOnly: boolean;
}

/** The rule a phase's policy gives the proxy; null when the container has no proxy (off/open). */
export function proxyRuleFor(policy: EgressPhasePolicy, allowList: readonly string[]): ProxyRule | null {
  if (policy.mode === "off" || policy.mode === "open") return null;
  const allow =
    policy.mode === "registries"
      ? REGISTRY_HOSTS.flatMap((host) => [`${host}:80`, `${host}:443`])
      : [...allowList];
  return { allow, getHeadOnly: policy.getHeadOnly };
}

/** Does `pattern` (an allow entry) admit `host:port`? The proxy's helper runs the same test. */
export function entryAdmits(pattern: string, host: string, port: number): boolean {
  const [name = "", portText] = pattern.split(":");
  if (portText !== undefined && Number(portText) !== port) return false;
  const wanted = host.toLowerCase().replace(/\.$/, "");
  if (name.startsWith(".")) return wanted === name.slice(1) || wanted.endsWith(name);
  return wanted === name;
}

export type ProxyVerdict = { allowed: true } | { allowed: false; reason: "raw-ip" | "not-listed" | "method" };

/** The proxy's decision for one request (pure; the squid helper carries a copy of this logic). */
export function decideRequest(rule: ProxyRule, host: string, port: number, method: string): ProxyVerdict {
  if (isRawIp(host)) return { allowed: false, reason: "raw-ip" };
  if (rule.getHeadOnly && method !== "GET" && method !== "HEAD") return { allowed: false, reason: "method" };
  if (!rule.allow.some((pattern) => entryAdmits(pattern, host, port)))
    return { allowed: false, reason: "not-listed" };
  return { allowed: true };
}

/**
 * Why a request was refused and which setting would let it through, for the session's page. A raw IP
 * or a private/loopback/host address is never allowed by any setting except Open (which bypasses
 * the proxy).
 */
export function deniedAdvice(reason: string, host: string, port: number, phase: EgressPhase): string {
  const where = phase === "setup" ? "the setup phase's" : "the agent phase's";
  switch (reason) {
    case "raw-ip":
      return "Raw IP addresses are always refused: use a host name on the allow-list (or set the network to Open).";
    case "private-address":
      return `${host} resolves to a loopback, link-local, private or this server's own address, which the proxy always refuses (only Open reaches it).`;
    case "method":
      return `Only GET and HEAD are allowed (HTTPS tunnels are refused in that mode): turn off "GET/HEAD only" for ${where} network.`;
    case "phase-off":
      return `Network is Off for ${where} phase: choose Package registries only, a custom allow-list or Open.`;
    default: {
      const registry =
        REGISTRY_HOSTS.some((entry) => entryAdmits(entry, host, port)) && (port === 80 || port === 443);
      return registry
        ? `${host} is a package registry: set ${where} network to "Package registries only".`
        : `Add ${port === 443 || port === 80 ? host : `${host}:${port}`} to the project's custom allow-list and choose "Custom allow-list" for ${where} network (or Open).`;
    }
  }
}
