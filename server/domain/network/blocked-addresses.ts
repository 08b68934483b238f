import { BlockList, isIP } from "node:net";

/**
 * Addresses Arbor never lets anyone point it (or a sandbox) at: the sandbox egress proxy refuses names
 * resolving to them (squid's `dst` acl, server/sandbox/egress/squid-config.ts) and outgoing webhooks
 * refuse them before every connection (server/teams/webhook-address.ts). One table, so the two cannot
 * drift apart. Each range says why, for the messages a person reads.
 */
export const BLOCKED_RANGE_KINDS = [
  { cidr: "0.0.0.0/8", kind: "unspecified" },
  { cidr: "10.0.0.0/8", kind: "private" },
  { cidr: "100.64.0.0/10", kind: "carrier-grade NAT" },
  { cidr: "127.0.0.0/8", kind: "loopback" },
  { cidr: "169.254.0.0/16", kind: "link-local" },
  { cidr: "172.16.0.0/12", kind: "private" },
  { cidr: "192.168.0.0/16", kind: "private" },
  { cidr: "224.0.0.0/4", kind: "multicast" },
  { cidr: "240.0.0.0/4", kind: "reserved" },
  { cidr: "::1", kind: "loopback" },
  { cidr: "::", kind: "unspecified" },
  { cidr: "fc00::/7", kind: "private" },
  { cidr: "fe80::/10", kind: "link-local" },
  { cidr: "ff00::/8", kind: "multicast" },
  // Prefixes that carry an IPv4 address inside an IPv6 one (a private one would slip past the IPv4
  // rows): refused whole, as nothing Arbor talks to needs them.
  { cidr: "64:ff9b::/96", kind: "NAT64 (an embedded IPv4 address)" },
  { cidr: "64:ff9b:1::/48", kind: "NAT64 (an embedded IPv4 address)" },
  { cidr: "2002::/16", kind: "6to4 (an embedded IPv4 address)" },
  { cidr: "2001::/32", kind: "Teredo (an embedded IPv4 address)" },
] as const;

/** The ranges alone, in squid's acl syntax. */
export const BLOCKED_RANGES: readonly string[] = BLOCKED_RANGE_KINDS.map((range) => range.cidr);

function blockListOf(cidrs: readonly string[]): BlockList {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [address = "", prefix] = cidr.split("/");
    const family = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  return list;
}

const LISTS = BLOCKED_RANGE_KINDS.map((range) => ({ kind: range.kind, list: blockListOf([range.cidr]) }));

/**
 * Why `address` (an IP address, IPv4-mapped IPv6 included) may not be reached, or null when it may.
 * `ownAddresses` are this machine's interface addresses (`1.2.3.4/32` or bare), refused too. Anything
 * that is not an IP address at all is refused: the caller resolves names first.
 */
export function blockedAddressKind(address: string, ownAddresses: readonly string[] = []): string | null {
  const bare = address.replace(/^\[|\]$/g, "").split("%")[0] ?? "";
  const version = isIP(bare);
  if (version === 0) return "not an IP address";
  const family = version === 6 ? "ipv6" : "ipv4";
  const hit = LISTS.find((range) => range.list.check(bare, family));
  if (hit) return hit.kind;
  const own = ownAddresses.map((entry) => entry.split("%")[0] ?? "").filter((entry) => entry !== "");
  if (own.length > 0 && blockListOf(own).check(bare, family)) return "this server's own";
  return null;
}
