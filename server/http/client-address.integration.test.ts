import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientAddress, compileTrust, PEER_HEADER, stampPeerAddresses } from "./client-address";

let server: Server;
let url: string;
beforeAll(async () => {
  stampPeerAddresses();
  server = createServer((request, response) => {
    response.setHeader("content-type", "application/json");
    response.end(JSON.stringify(request.headers));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function headersSeen(sent: Record<string, string>): Promise<Record<string, string>> {
  return (await (await fetch(url, { headers: sent })).json()) as Record<string, string>;
}

describe("the client address for rate limits", () => {
  it("is the TCP peer, whatever the client claims in headers", async () => {
    const seen = await headersSeen({ [PEER_HEADER]: "203.0.113.9", "x-forwarded-for": "198.51.100.1" });
    expect(seen[PEER_HEADER]).toBe("127.0.0.1");
    expect(clientAddress(seen, compileTrust(undefined))).toBe("127.0.0.1");
  });

  it("follows X-Forwarded-For only through configured trusted proxies", async () => {
    const seen = await headersSeen({ "x-forwarded-for": "198.51.100.1, 10.0.0.5" });
    // The peer (127.0.0.1) is trusted, so is 10.0.0.5; the client is the first untrusted hop.
    expect(clientAddress(seen, compileTrust("loopback, 10.0.0.0/8"))).toBe("198.51.100.1");
    // Only loopback trusted: 10.0.0.5 is the client as far as we can tell.
    expect(clientAddress(seen, compileTrust("127.0.0.1"))).toBe("10.0.0.5");
    expect(clientAddress(seen, compileTrust(""))).toBe("127.0.0.1");
  });

  it("is one shared 'unknown' when no peer was stamped (fails closed into one bucket)", () => {
    expect(clientAddress({ "x-forwarded-for": "198.51.100.1" }, compileTrust("loopback"))).toBe("unknown");
  });
});
