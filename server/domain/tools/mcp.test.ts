import { describe, expect, it } from "vitest";
import { McpServerName, McpTransportConfig, mcpToolName, parseMcpToolName, urlOnAllowList } from "./mcp";

describe("MCP tool names", () => {
  it("round-trip mcp__<server>__<tool>, and refuse what a provider could not call", () => {
    expect(mcpToolName("everything", "get-sum")).toBe("mcp__everything__get-sum");
    expect(parseMcpToolName("mcp__everything__get-sum")).toEqual({ server: "everything", tool: "get-sum" });
    expect(parseMcpToolName("mcp__everything__a__b")).toEqual({ server: "everything", tool: "a__b" });
    expect(mcpToolName("x", "has.dot")).toBeNull();
    expect(mcpToolName("x", "t".repeat(56))).toBe(`mcp__x__${"t".repeat(56)}`);
    expect(mcpToolName("x", "t".repeat(57))).toBeNull();
    expect(parseMcpToolName("fs.read")).toBeNull();
    expect(parseMcpToolName("mcp__Bad_Server__x")).toBeNull();
  });

  it("server names cannot hold `__` or upper case", () => {
    expect(McpServerName.safeParse("git-hub").success).toBe(true);
    expect(McpServerName.safeParse("a__b").success).toBe(false);
    expect(McpServerName.safeParse("GitHub").success).toBe(false);
    expect(McpServerName.safeParse("a".repeat(25)).success).toBe(false);
  });

  it("a transport is a command (no control characters) or an http(s) URL", () => {
    expect(
      McpTransportConfig.safeParse({ transport: "stdio", command: "node", args: ["a\nb"] }).success,
    ).toBe(false);
    expect(McpTransportConfig.safeParse({ transport: "http", url: "file:///etc/passwd" }).success).toBe(
      false,
    );
    expect(McpTransportConfig.parse({ transport: "stdio", command: "node" })).toEqual({
      transport: "stdio",
      command: "node",
      args: [],
    });
  });
});

describe("an HTTP server's URL and the project's allow-list", () => {
  it("admits the listed host and port only, never a raw address", () => {
    expect(urlOnAllowList("https://mcp.example.com/mcp", ["mcp.example.com"])).toBe(true);
    expect(urlOnAllowList("https://mcp.example.com/mcp", [".example.com"])).toBe(true);
    expect(urlOnAllowList("http://localhost:3001/mcp", ["localhost:3001"])).toBe(true);
    expect(urlOnAllowList("http://localhost:3002/mcp", ["localhost:3001"])).toBe(false);
    expect(urlOnAllowList("https://evil.com/mcp", ["example.com"])).toBe(false);
    expect(urlOnAllowList("http://127.0.0.1:3001/mcp", ["localhost:3001"])).toBe(false);
    expect(urlOnAllowList("http://[::1]:3001/mcp", ["localhost:3001"])).toBe(false);
    expect(urlOnAllowList("not a url", ["localhost"])).toBe(false);
  });
});
