import type { IncomingMessage, Server } from "node:http";
import http from "node:http";
import proxyaddr from "proxy-addr";

/**
 * The address a request came from, for rate limits. Next.js route handlers never see the TCP peer,
 * and `next start` keeps an `X-Forwarded-For` the client sent itself, so neither can be trusted as
 * is. The HTTP server stamps the real peer into `PEER_HEADER` (replacing anything the client sent),
 * and `X-Forwarded-For` is believed only hop by hop from peers in `ARBOR_TRUSTED_PROXIES`
 * (`proxy-addr`, the library Express uses for the same decision).
 */
export const PEER_HEADER = "x-arbor-peer-address";

const stamped = Symbol.for("arbor.peer-address-stamped");

/** Once per process: every HTTP request gets its socket's address in `PEER_HEADER`. */
export function stampPeerAddresses(): void {
  const proto = http.Server.prototype as Server & { [stamped]?: boolean };
  if (proto[stamped]) return;
  proto[stamped] = true;
  const emit = proto.emit;
  proto.emit = function emitWithPeer(this: Server, event: string | symbol, ...args: unknown[]) {
    if (event === "request") {
      const request = args[0] as IncomingMessage;
      request.headers[PEER_HEADER] = request.socket?.remoteAddress ?? "";
    }
    return emit.apply(this, [event, ...args] as Parameters<typeof emit>);
  } as typeof proto.emit;
}

/** A trust function for `proxy-addr` from a comma-separated list of addresses, CIDRs or names. */
export function compileTrust(list: string | undefined): (address: string, hop: number) => boolean {
  const entries = (list ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  return entries.length > 0 ? proxyaddr.compile(entries) : () => false;
}

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderSource, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const value = headers[name];
  return Array.isArray(value) ? value.join(",") : value;
}

/** The client's address, or "unknown" when the server did not stamp a peer (all such share one limit). */
export function clientAddress(
  headers: HeaderSource,
  trust: (address: string, hop: number) => boolean,
): string {
  const peer = header(headers, PEER_HEADER);
  if (!peer) return "unknown";
  const forwarded = header(headers, "x-forwarded-for");
  const request = {
    headers: forwarded ? { "x-forwarded-for": forwarded } : {},
    connection: { remoteAddress: peer },
    socket: { remoteAddress: peer },
  } as unknown as IncomingMessage;
  return proxyaddr(request, trust).replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "");
}
