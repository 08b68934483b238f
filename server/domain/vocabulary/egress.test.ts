import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseAccessLogLine } from "@/server/sandbox/egress/access-log";
import { HELPER_SOURCE, squidConfig } from "@/server/sandbox/egress/squid-config";
import {
  AllowEntry,
  DEFAULT_EGRESS,
  decideRequest,
  deniedAdvice,
  proxyRuleFor,
  REGISTRY_HOSTS,
} from "./egress";

describe("egress policy", () => {
  it("defaults to registries for setup and Off for the agent", () => {
    expect(DEFAULT_EGRESS).toEqual({
      setup: { mode: "registries", getHeadOnly: false },
      agent: { mode: "off", getHeadOnly: false },
      allowList: [],
    });
  });

  it("accepts host names, domains and ports, refuses addresses and junk", () => {
    expect(AllowEntry.parse(" Example.COM ")).toBe("example.com");
    expect(AllowEntry.parse(".example.com:8443")).toBe(".example.com:8443");
    for (const bad of [
      "1.2.3.4",
      "2130706433",
      "0x7f.1",
      "[::1]",
      "a b",
      "x:99999",
      "host:1:2",
      "",
      "*.x.com",
    ]) {
      expect(AllowEntry.safeParse(bad).success, bad).toBe(false);
    }
  });

  it("decides like the proxy: listed names, domains with a dot, ports, methods, raw IPs", () => {
    const registries = proxyRuleFor({ mode: "registries", getHeadOnly: false }, []);
    expect(registries).not.toBeNull();
    if (!registries) return;
    expect(decideRequest(registries, "registry.npmjs.org", 443, "CONNECT")).toEqual({ allowed: true });
    expect(decideRequest(registries, "registry.npmjs.org", 8080, "CONNECT")).toMatchObject({
      reason: "not-listed",
    });
    expect(decideRequest(registries, "evil.registry.npmjs.org.attacker.net", 443, "CONNECT")).toMatchObject({
      reason: "not-listed",
    });
    expect(decideRequest(registries, "93.184.216.34", 443, "CONNECT")).toMatchObject({ reason: "raw-ip" });
    const custom = { allow: [".example.com"], getHeadOnly: true };
    expect(decideRequest(custom, "api.example.com", 80, "GET")).toEqual({ allowed: true });
    expect(decideRequest(custom, "example.com", 80, "HEAD")).toEqual({ allowed: true });
    expect(decideRequest(custom, "notexample.com", 80, "GET")).toMatchObject({ reason: "not-listed" });
    expect(decideRequest(custom, "api.example.com", 80, "POST")).toMatchObject({ reason: "method" });
    expect(decideRequest(custom, "api.example.com", 443, "CONNECT")).toMatchObject({ reason: "method" });
    expect(proxyRuleFor({ mode: "off", getHeadOnly: false }, [])).toBeNull();
  });

  it("says which setting would allow a refused host", () => {
    expect(deniedAdvice("not-listed", "pypi.org", 443, "agent")).toContain("Package registries only");
    expect(deniedAdvice("not-listed", "example.com", 8080, "setup")).toContain("example.com:8080");
    expect(deniedAdvice("raw-ip", "1.2.3.4", 80, "setup")).toContain("Raw IP");
    expect(deniedAdvice("private-address", "vm", 80, "setup")).toContain("always refuses");
    expect(deniedAdvice("phase-off", "x.org", 443, "agent")).toContain("Off");
  });

  it("the squid helper answers as decideRequest does", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "arbor-helper-"));
    const helper = path.join(dir, "helper.cjs");
    const rules = path.join(dir, "rules.json");
    writeFileSync(helper, HELPER_SOURCE);
    const rule = { allow: ["registry.npmjs.org:443", ".example.com"], getHeadOnly: false };
    writeFileSync(rules, JSON.stringify({ "172.30.0.2": { sessionId: "s", phase: "setup", ...rule } }));
    const cases: [string, string, number, string][] = [
      ["172.30.0.2", "registry.npmjs.org", 443, "CONNECT"],
      ["172.30.0.2", "registry.npmjs.org", 80, "GET"],
      ["172.30.0.2", "a.example.com", 80, "POST"],
      ["172.30.0.2", "10.0.0.1", 80, "GET"],
      ["172.30.0.9", "registry.npmjs.org", 443, "CONNECT"],
    ];
    const input = cases.map(([src, host, port, method]) => `${src} ${host} ${port} ${method}\n`).join("");
    const answer = spawnSync(process.execPath, [helper, rules], { input, encoding: "utf8" });
    expect(answer.stdout.trim().split("\n")).toEqual([
      "OK log=allowed",
      "ERR log=not-listed",
      "OK log=allowed",
      "ERR log=raw-ip",
      "ERR log=phase-off",
    ]);
    for (const [index, [, host, port, method]] of cases.slice(0, 4).entries()) {
      expect(decideRequest(rule, host, port, method).allowed).toBe(
        answer.stdout.split("\n")[index]?.startsWith("OK"),
      );
    }
  });

  it("lists every registry host in the generated README list and in the squid config's order of checks", () => {
    expect(REGISTRY_HOSTS).toContain("registry.npmjs.org");
    const conf = squidConfig({
      listen: { address: "172.30.0.1", port: 3129 },
      stateDir: "/s",
      nodePath: "/n",
      helperPath: "/h",
      rulesPath: "/r",
      hostAddresses: ["192.0.2.2/32"],
      upstream: { host: "proxy.corp", port: 8080 },
      effectiveUser: "proxy",
    });
    const access = conf.split("\n").filter((line) => line.startsWith("http_access"));
    // The allow-list first: a name nobody allowed is never resolved by the proxy.
    expect(access).toEqual([
      "http_access deny !arbor_allowed",
      "http_access deny arbor_blocked_dst arbor_note_private",
      "http_access allow arbor_allowed",
      "http_access deny all",
    ]);
    expect(conf).toContain("192.0.2.2/32");
    expect(conf).toContain("cache_peer proxy.corp parent 8080 0");
    expect(conf).toContain("never_direct allow all");
  });
});

describe("access log", () => {
  it("parses tunnels, plain requests and refusals with their reason", () => {
    expect(
      parseAccessLogLine(
        "1795599855.841 172.19.0.2 CONNECT registry.npmjs.org:443 200 912 11637 TCP_TUNNEL - allowed",
      ),
    ).toEqual({
      at: 1795599855841,
      client: "172.19.0.2",
      method: "CONNECT",
      host: "registry.npmjs.org",
      port: 443,
      status: 200,
      bytesOut: 912,
      bytesIn: 11637,
      allowed: true,
      reason: null,
    });
    expect(
      parseAccessLogLine("1.0 172.19.0.2 GET http://1.2.3.4/x 403 115 3395 TCP_DENIED - raw-ip"),
    ).toMatchObject({
      host: "1.2.3.4",
      port: 80,
      allowed: false,
      reason: "raw-ip",
    });
    expect(
      parseAccessLogLine("1.0 172.19.0.2 GET http://vm:8080/ 403 1 2 TCP_DENIED private-address allowed"),
    ).toMatchObject({ host: "vm", port: 8080, reason: "private-address" });
    expect(parseAccessLogLine("garbage")).toBeNull();
  });
});
