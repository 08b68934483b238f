import { describe, expect, it } from "vitest";
import { blockedAddressKind } from "./blocked-addresses";

describe("blockedAddressKind (shared by the egress proxy and webhooks)", () => {
  it.each([
    ["172.15.255.255", null],
    ["172.16.0.0", "private"],
    ["172.31.255.255", "private"],
    ["172.32.0.0", null],
    ["9.255.255.255", null],
    ["10.0.0.0", "private"],
    ["11.0.0.0", null],
    ["192.167.255.255", null],
    ["192.168.0.1", "private"],
    ["100.63.255.255", null],
    ["100.64.0.0", "carrier-grade NAT"],
    ["100.128.0.0", null],
    ["126.255.255.255", null],
    ["127.0.0.1", "loopback"],
    ["169.254.169.254", "link-local"],
    ["0.0.0.0", "unspecified"],
    ["223.255.255.255", null],
    ["224.0.0.1", "multicast"],
    ["255.255.255.255", "reserved"],
    ["8.8.8.8", null],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["[::1]", "loopback"],
    ["fbff:ffff::1", null],
    ["fc00::1", "private"],
    ["fdff::1", "private"],
    ["fe80::1%eth0", "link-local"],
    ["ff02::1", "multicast"],
    ["2001:4860:4860::8888", null],
    ["::ffff:127.0.0.1", "loopback"],
    ["64:ff9b::a00:1", "NAT64 (an embedded IPv4 address)"],
    ["64:ff9b::1:0:0", null],
    ["64:ff9b:1::a00:1", "NAT64 (an embedded IPv4 address)"],
    ["2002:c0a8:1::1", "6to4 (an embedded IPv4 address)"],
    ["2003::1", null],
    ["2001:0:4136:e378::1", "Teredo (an embedded IPv4 address)"],
    ["2001:1::1", null],
    ["::ffff:a9fe:a9fe", "link-local"],
    ["::ffff:8.8.8.8", null],
  ])("%s → %s", (address, kind) => {
    expect(blockedAddressKind(address)).toBe(kind);
  });

  it("refuses this server's own addresses and anything that is not an address", () => {
    expect(blockedAddressKind("203.0.113.7", ["203.0.113.7/32"])).toBe("this server's own");
    expect(blockedAddressKind("203.0.113.8", ["203.0.113.7/32"])).toBeNull();
    expect(blockedAddressKind("2001:db8::5", ["2001:db8::5"])).toBe("this server's own");
    expect(blockedAddressKind("localhost")).toBe("not an IP address");
    expect(blockedAddressKind("0x7f.1")).toBe("not an IP address");
  });
});
