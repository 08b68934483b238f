import { describe, expect, it } from "vitest";
import type { McpStageChoice, McpToolRisk } from "@/server/domain/tools/mcp";
import { STAGES, type Stage, type UserMode } from "@/server/domain/vocabulary/stages";
import { mcpToolOffered } from "./mcp-offer";

const offered = (
  stage: Stage,
  mode: UserMode,
  choice: McpStageChoice,
  setting: McpToolRisk | undefined,
  reasoning: "on" | "off" = "off",
) => mcpToolOffered({ stage, mode, reasoning, choice, setting });

describe("which MCP tools a stage offers", () => {
  // stage × mode × project choice × risk → offered (reasoning off; warmup needs it on, below)
  it.each([
    // act and its follow-up: what the project allows, Ask included
    ["act", "agent", "act", "moderate", true],
    ["act", "agent", "act", "dangerous", true],
    ["act", "agent", "act", "safe", true],
    ["act", "agent", "act", undefined, true],
    ["micro_step", "agent", "act", "moderate", true],
    ["act", "agent", "looking", "moderate", true],
    ["act", "agent", "act", "off", false],
    // looking stages: only when the project offers them there, and only Safe tools
    ["discover", "agent", "looking", "safe", true],
    ["contract", "agent", "looking", "safe", true],
    ["verify", "agent", "looking", "safe", true],
    ["decompose", "agent", "looking", "safe", true],
    ["reflect", "agent", "looking", "safe", true],
    ["qa_review", "agent", "looking", "safe", true],
    ["discover", "agent", "looking", "moderate", false],
    ["discover", "agent", "looking", undefined, false],
    ["qa_review", "agent", "looking", "dangerous", false],
    ["discover", "agent", "looking", "off", false],
    ["discover", "agent", "act", "safe", false],
    ["qa_review", "agent", "act", "safe", false],
    // the delivery check judges with no tools at all
    ["delivery_check", "agent", "looking", "safe", false],
    // Chat: read-only, so Safe only, and only in the stages Chat runs
    ["discover", "chat", "looking", "safe", true],
    ["qa_review", "chat", "looking", "safe", true],
    ["discover", "chat", "looking", "moderate", false],
    ["discover", "chat", "looking", undefined, false],
    ["discover", "chat", "act", "safe", false],
    ["act", "chat", "looking", "safe", false],
    ["act", "chat", "act", "moderate", false],
    ["delivery_check", "chat", "looking", "safe", false],
  ] as const)(
    "%s in %s mode, server offered in %s, risk %s → %s",
    (stage, mode, choice, setting, expected) => {
      expect(offered(stage, mode, choice, setting)).toBe(expected);
    },
  );

  it("offers nothing in a stage the person's switch does not run (warmup needs reasoning on)", () => {
    expect(offered("warmup", "agent", "looking", "safe", "off")).toBe(false);
    expect(offered("warmup", "agent", "looking", "safe", "on")).toBe(true);
    expect(offered("warmup", "agent", "looking", "moderate", "on")).toBe(false);
  });

  it("never offers a tool that is off, or one that asks, outside act and micro_step, in any stage or mode", () => {
    for (const stage of STAGES)
      for (const mode of ["agent", "chat"] as const)
        for (const choice of ["act", "looking"] as const)
          for (const reasoning of ["on", "off"] as const) {
            expect(offered(stage, mode, choice, "off", reasoning)).toBe(false);
            const changing = mode === "agent" && (stage === "act" || stage === "micro_step");
            for (const asking of ["moderate", "dangerous", undefined] as const)
              if (!changing) expect(offered(stage, mode, choice, asking, reasoning)).toBe(false);
          }
  });
});
