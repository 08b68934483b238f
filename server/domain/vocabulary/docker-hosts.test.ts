import { describe, expect, it } from "vitest";
import { parseDockerHosts } from "./docker-hosts";

describe("parseDockerHosts", () => {
  it("is the one local engine when unset or empty", () => {
    expect(parseDockerHosts(undefined)).toEqual([{ id: "local", kind: "local", maxSessions: 32 }]);
    expect(parseDockerHosts(" , ")).toEqual([{ id: "local", kind: "local", maxSessions: 32 }]);
  });

  it("reads local, unix sockets and TLS tcp hosts with their caps", () => {
    const hosts = parseDockerHosts(
      "local, unix:///run/d2/docker.sock?max=3, tcp://10.0.0.2:2376?tls=/etc/arbor/d3",
    );
    expect(hosts).toEqual([
      { id: "local", kind: "local", maxSessions: 32 },
      { id: "/run/d2/docker.sock", kind: "unix", socketPath: "/run/d2/docker.sock", maxSessions: 3 },
      {
        id: "10.0.0.2:2376",
        kind: "tcp",
        host: "10.0.0.2",
        port: 2376,
        tlsDir: "/etc/arbor/d3",
        maxSessions: 32,
      },
    ]);
  });

  it("reads a priority on any entry, local included, and refuses one out of range", () => {
    expect(parseDockerHosts("local?priority=-1, tcp://10.0.0.2:2376?tls=/d&priority=100")).toEqual([
      { id: "local", kind: "local", maxSessions: 32, priority: -1 },
      expect.objectContaining({ id: "10.0.0.2:2376", tlsDir: "/d", priority: 100 }),
    ]);
    expect(() => parseDockerHosts("local?priority=101")).toThrow(/priority must be/);
    expect(() => parseDockerHosts("local?priority=1.5")).toThrow(/priority must be/);
    expect(() => parseDockerHosts("local?tls=/d")).toThrow(/tls is for tcp hosts/);
  });

  it("refuses plain TCP, unknown options, bad caps and duplicates, naming each", () => {
    expect(() => parseDockerHosts("tcp://h:2375")).toThrow(/needs \?tls=/);
    expect(() => parseDockerHosts("local2")).toThrow(/expected local/);
    expect(() => parseDockerHosts("unix:///s?max=0")).toThrow(/max must be/);
    expect(() => parseDockerHosts("unix:///s?color=red")).toThrow(/unknown option color/);
    expect(() => parseDockerHosts("local,local")).toThrow(/local is listed twice/);
    expect(() => parseDockerHosts("ftp://x,unix://rel")).toThrow(
      /ftp:\/\/x: expected.*; unix:\/\/rel: a unix socket/,
    );
  });
});
