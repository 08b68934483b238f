import { describe, expect, it, vi } from "vitest";
import {
  assertRequestInvariants,
  findViolations,
  InvariantViolationError,
  invariantBehaviourFor,
  type ModelRequestFacts,
} from "./invariants";
import { stagePolicy } from "./policy";
import { REASONING_MARKER } from "./prompt-variables";

const policy = stagePolicy("verify", "agent", "on");
const sound: ModelRequestFacts = {
  runId: "run-1",
  stage: "verify",
  mode: "agent",
  reasoning: "on",
  tools: [...policy.tools].reverse(),
  system: `base…\n${REASONING_MARKER}…`,
};

describe("findViolations", () => {
  it("accepts a request that matches the policy (tool order does not matter)", () => {
    expect(findViolations(sound, policy)).toEqual([]);
  });

  it.each([
    ["mode", { mode: "chat" }, /request mode chat ≠ user mode agent/],
    ["reasoning", { reasoning: "off" }, /request reasoning off ≠ user switch on/],
    ["reasoning-instruction", { system: "no marker" }, /no reasoning instruction/],
    ["tools", { tools: [...policy.tools, "fs.write"] }, /not allowed: fs.write/],
    ["tools", { tools: policy.tools.slice(1) }, /missing: fs.read/],
    ["tools", { tools: [...policy.tools, "fs.read"] }, /offered twice/],
    ["stage", { stage: "act" }, /request stage act ≠ policy stage verify/],
  ] as const)("reports a %s violation", (kind, change, message) => {
    const violations = findViolations({ ...sound, ...change }, policy);
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatchObject({ kind });
    expect(violations[0]?.message).toMatch(message);
  });

  it("reports a reasoning instruction that the user did not switch on", () => {
    const off = stagePolicy("act", "agent", "off");
    const request = {
      ...sound,
      stage: "act",
      reasoning: "off",
      tools: off.tools,
      system: REASONING_MARKER,
    } as const;
    expect(findViolations(request, off).map((v) => v.message)).toEqual([
      "reasoning is off but the system prompt asks for reasoning",
    ]);
  });

  it("reports a request for a stage the mode never runs, and every problem at once", () => {
    const chatAct = stagePolicy("act", "chat", "off");
    const request: ModelRequestFacts = { ...sound, stage: "act", mode: "agent", reasoning: "on" };
    expect(findViolations(request, chatAct).map((v) => v.kind)).toEqual([
      "stage",
      "mode",
      "reasoning",
      "reasoning-instruction",
      "tools",
    ]);
  });
});

describe("assertRequestInvariants", () => {
  it("returns an empty list for a sound request in both behaviours", () => {
    expect(assertRequestInvariants(sound, policy, { mode: "throw" })).toEqual([]);
    expect(assertRequestInvariants(sound, policy, { mode: "log" })).toEqual([]);
  });

  it("throws every violation in throw mode", () => {
    const request = { ...sound, mode: "chat", tools: [] } as const;
    expect(() => assertRequestInvariants(request, policy, { mode: "throw" })).toThrow(
      InvariantViolationError,
    );
    expect(() => assertRequestInvariants(request, policy, { mode: "throw" })).toThrow(/mode chat.*; tools/);
  });

  it("logs with the seed 001 §9.1 fields and returns the violations in log mode", () => {
    const log = vi.fn();
    const request = { ...sound, mode: "chat" } as const;
    const violations = assertRequestInvariants(request, policy, { mode: "log", log });
    expect(violations).toHaveLength(1);
    expect(log).toHaveBeenCalledWith(violations, {
      runId: "run-1",
      stage: "verify",
      userMode: "chat",
      reasoningEnabled: true,
      toolCount: policy.tools.length,
      tools: request.tools,
    });
  });
});

describe("invariantBehaviourFor", () => {
  it("throws everywhere except production", () => {
    expect(invariantBehaviourFor("production")).toBe("log");
    expect(invariantBehaviourFor("development")).toBe("throw");
    expect(invariantBehaviourFor("test")).toBe("throw");
    expect(invariantBehaviourFor(undefined)).toBe("throw");
  });
});
