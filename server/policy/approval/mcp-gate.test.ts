import { describe, expect, it } from "vitest";
import { INTENT_REQUIRED_ERROR } from "@/server/governance/intent-gate";
import { gateMcpCall } from "./mcp-gate";

const base = {
  tool: "mcp__gh__create_issue",
  hasIntent: true,
  checkpoints: { commands: "ask-unlisted" as const, preApproved: [] },
  preApproved: { run: [], project: [] },
};

describe("the MCP tool gate", () => {
  it("asks by default, refuses off and without an intent, lets a safe tool through", () => {
    expect(gateMcpCall({ ...base, setting: "moderate" })).toEqual({
      decision: "ask",
      reason: expect.any(String),
    });
    expect(gateMcpCall({ ...base, setting: "dangerous" })).toMatchObject({ decision: "ask", confirm: true });
    expect(gateMcpCall({ ...base, setting: "off" }).decision).toBe("deny");
    expect(gateMcpCall({ ...base, setting: "moderate", hasIntent: false })).toEqual({
      decision: "deny",
      reason: INTENT_REQUIRED_ERROR,
    });
    expect(gateMcpCall({ ...base, setting: "safe", hasIntent: false }).decision).toBe("approve");
  });

  it("pre-approvals: the project's cover every risk, a run's only moderate; ask-always asks anyway", () => {
    const project = { run: [], project: ["mcp" as const] };
    const run = { run: ["mcp" as const], project: [] };
    expect(gateMcpCall({ ...base, setting: "dangerous", preApproved: project }).decision).toBe("approve");
    expect(gateMcpCall({ ...base, setting: "moderate", preApproved: run }).decision).toBe("approve");
    expect(gateMcpCall({ ...base, setting: "dangerous", preApproved: run }).decision).toBe("ask");
    expect(
      gateMcpCall({
        ...base,
        setting: "moderate",
        preApproved: project,
        checkpoints: { commands: "ask-always", preApproved: [] },
      }).decision,
    ).toBe("ask");
  });
});
