import "server-only";
import { lookup as dnsLookup } from "node:dns/promises";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { blockedAddressKind } from "@/server/domain/network/blocked-addresses";
import { hostAddresses } from "@/server/sandbox/egress/squid-process";

/**
 * The SSRF filter of outgoing webhooks: a team admin names the address, so without it Arbor's server
 * could be made to POST to itself, the cloud's metadata service (169.254.169.254), Docker's API or the
 * database. A webhook's host must not be, or resolve to, an address of the egress proxy's blocked table
 * (server/domain/network/blocked-addresses.ts) or this machine's own; it is checked when the webhook
 * is saved and again before every delivery (DNS may change in between), and the delivery connects to
 * the very address that was checked (a pinned `lookup`), so a name re-pointed between the check and
 * the connection (DNS rebinding) gets nowhere. Redirects are never followed.
 */

export interface PinnedAddress {
  address: string;
  family: 4 | 6;
}

export type AddressVerdict =
  | { allowed: true; pinned: PinnedAddress | null }
  | { allowed: false; reason: string; unresolved?: true };

type Resolve = (host: string) => Promise<PinnedAddress[]>;

const resolveAll: Resolve = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((entry) => ({
    address: entry.address,
    family: entry.family === 6 ? 6 : 4,
  }));

const ADVICE =
  "Arbor never sends webhooks to loopback, private, link-local, multicast, carrier-grade NAT or its own addresses; an administrator can allow a named on-premises receiver with ARBOR_WEBHOOK_ALLOWED_HOSTS.";

/**
 * May a webhook be sent to `url`, and to which address? Every address the host resolves to must pass
 * (a name with one public and one private address is refused); the first is the one to connect to.
 */
export async function checkWebhookAddress(
  url: string,
  allowedHosts: readonly string[],
  resolve: Resolve = resolveAll,
  ownAddresses: readonly string[] = hostAddresses(),
): Promise<AddressVerdict> {
  const parsed = new URL(url);
  const host = parsed.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const port = parsed.port || (parsed.protocol === "https:" ? "443" : "80");
  const allowed = allowedHosts.includes(host) || allowedHosts.includes(`${host}:${port}`);
  let addresses: PinnedAddress[];
  if (isIP(host) !== 0) addresses = [{ address: host, family: isIP(host) === 6 ? 6 : 4 }];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      addresses = [];
    }
    if (addresses.length === 0)
      return { allowed: false, reason: `${host} does not resolve to any address.`, unresolved: true };
  }
  const pinned = addresses[0] ?? null;
  if (allowed) return { allowed: true, pinned };
  for (const { address } of addresses) {
    const kind = blockedAddressKind(address, ownAddresses);
    if (kind !== null) {
      const what = address === host ? host : `${host} resolves to ${address}, which`;
      return { allowed: false, reason: `${what} is a ${kind} address. ${ADVICE}` };
    }
  }
  return { allowed: true, pinned };
}

export interface WebhookPost {
  url: string;
  pinned: PinnedAddress | null;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}

/**
 * POSTs one delivery to the checked address (the URL's host still names the server: Host header and
 * TLS name) and answers the HTTP status; a redirect is an answer like any other, never followed.
 */
export function postPinned(post: WebhookPost): Promise<number> {
  const url = new URL(post.url);
  const pinned = post.pinned;
  const lookup: LookupFunction | undefined = pinned
    ? (_host, options, callback) => {
        if (options.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
        else callback(null, pinned.address, pinned.family);
      }
    : undefined;
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(
      url,
      {
        method: "POST",
        headers: { ...post.headers, "content-length": String(Buffer.byteLength(post.body)) },
        lookup,
        agent: false,
        signal: AbortSignal.timeout(post.timeoutMs),
      },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on("error", reject);
    request.end(post.body);
  });
}
