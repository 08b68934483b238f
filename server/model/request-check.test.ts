import { describe, expect, it, vi } from "vitest";
import { REASONING_SWITCHES, STAGES, USER_MODES } from "@/server/domain/vocabulary/stages";
import { InvariantViolationError, stagePolicy } from "@/server/policy/stages";
import { composeSystemPrompt } from "./compose-prompt";
import { checkModelRequest } from "./request-check";

const quiet = { error: vi.fn(), debug: vi.fn() };
const vars = { project_root: "/workspace", tool_summary: "fs.read", user_input: "q", last_step_outcome: "-" };

describe("every model request is checked against the stage policy", () => {
  it("passes for a request built from the policy, on every stage, mode and switch that runs", () => {
    let checked = 0;
    for (const stage of STAGES)
      for (const mode of USER_MODES)
        for (const reasoning of REASONING_SWITCHES) {
          const policy = stagePolicy(stage, mode, reasoning);
          if (!policy.allowed) continue;
          const system = composeSystemPrompt(policy, vars);
          expect(() =>
            checkModelRequest(
              { runId: "r", stage, mode, reasoning, tools: policy.tools, system },
              { logger: quiet },
            ),
          ).not.toThrow();
          checked += 1;
        }
    expect(checked).toBeGreaterThan(15);
  });

  it("throws in tests when a request's mode is not the user's (nobody may flip it)", () => {
    const policy = stagePolicy("discover", "chat", "off");
    const system = composeSystemPrompt(policy, vars);
    // Built for Agent mode while the user chose Chat: the policy of the user's choice says no.
    const flipped = () =>
      checkModelRequest(
        { runId: "r", stage: "act", mode: "chat", reasoning: "off", tools: ["fs.write"], system },
        { logger: quiet },
      );
    expect(flipped).toThrow(InvariantViolationError);
  });

  it("throws when the reasoning switch is on but the prompt has no reasoning instruction, and the reverse", () => {
    const off = composeSystemPrompt(stagePolicy("act", "agent", "off"), vars);
    const on = composeSystemPrompt(stagePolicy("act", "agent", "on"), vars);
    const tools = stagePolicy("act", "agent", "on").tools;
    const request = { runId: "r", stage: "act" as const, mode: "agent" as const, tools };
    expect(() => checkModelRequest({ ...request, reasoning: "on", system: off }, { logger: quiet })).toThrow(
      /no reasoning instruction/,
    );
    expect(() => checkModelRequest({ ...request, reasoning: "off", system: on }, { logger: quiet })).toThrow(
      /asks for reasoning/,
    );
  });

  it("lets the agent's act step offer fewer tools (subset), never one more", () => {
    const request = {
      runId: "r",
      mode: "agent" as const,
      reasoning: "off" as const,
      system: "act",
      toolMatch: "subset" as const,
    };
    expect(() =>
      checkModelRequest({ ...request, stage: "act", tools: ["shell.exec"] }, { logger: quiet }),
    ).not.toThrow();
    expect(() =>
      checkModelRequest({ ...request, stage: "decompose", tools: [] }, { logger: quiet }),
    ).not.toThrow();
    expect(() =>
      checkModelRequest({ ...request, stage: "decompose", tools: ["shell.exec"] }, { logger: quiet }),
    ).toThrow(/not allowed: shell.exec/);
  });

  it("logs instead of throwing in production, with the request's fields and no prompt text", () => {
    const logger = { error: vi.fn(), debug: vi.fn() };
    checkModelRequest(
      {
        runId: "r9",
        stage: "discover",
        mode: "chat",
        reasoning: "off",
        tools: ["fs.write"],
        system: "secret prompt",
      },
      { behaviour: "log", logger },
    );
    expect(logger.error).toHaveBeenCalledTimes(1);
    const [fields] = logger.error.mock.calls[0] as [Record<string, unknown>];
    expect(fields).toMatchObject({
      runId: "r9",
      stage: "discover",
      userMode: "chat",
      reasoningEnabled: false,
      toolCount: 1,
    });
    expect(JSON.stringify(fields)).not.toContain("secret prompt");
  });
});
