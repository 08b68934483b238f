import { describe, expect, it } from "vitest";
import { REASONING_MARKER } from "@/server/policy/stages/prompt-variables";
import { deliveryAsk, interpretDelivery } from "./delivery-ask";
import { deliveryHeuristic } from "./heuristic";
import { SUBMIT_DELIVERY } from "./types";

const input = {
  task: "add a README",
  rootStatus: "VERIFIED",
  outcome: ["VERIFIED: add a README — contract passed"],
  qa: [],
  request: { runId: "r", mode: "agent" as const, reasoning: "off" as const },
};

describe("the delivery check's request", () => {
  it("offers no workspace tool, only submit_delivery, with the stage prompt and the tree's outcome", () => {
    const ask = deliveryAsk(input);
    expect(ask.stage).toBe("delivery_check");
    expect(ask.workspaceTools).toEqual([]);
    expect(Object.keys(ask.tools)).toEqual([SUBMIT_DELIVERY]);
    expect(ask.instructions).toContain("This step: is the request delivered?");
    // The reasoning prompt is the model's invariant step's to add, never twice.
    expect(ask.instructions).not.toContain(REASONING_MARKER);
    expect(
      deliveryAsk({ ...input, request: { ...input.request, reasoning: "on" } }).instructions,
    ).not.toContain(REASONING_MARKER);
    expect(ask.userMessage).toContain("add a README");
    expect(ask.userMessage).toContain("- VERIFIED: add a README — contract passed");
    expect(ask.userMessage).toMatch(/## What the advisory review said\s+\(none\)/);
  });

  it("reads a valid answer and names what is wrong with any other", () => {
    const answer = { state: "NEEDS_WORK", reason: "no tests", missing: ["tests"] };
    expect(interpretDelivery([{ toolName: SUBMIT_DELIVERY, input: answer }], "")).toEqual({
      ok: true,
      value: answer,
    });
    expect(
      interpretDelivery([{ toolName: SUBMIT_DELIVERY, input: { state: "DONE", reason: "ok" } }], ""),
    ).toEqual({
      ok: true,
      value: { state: "DONE", reason: "ok", missing: [] },
    });
    expect(interpretDelivery([], "I think it is done")).toMatchObject({
      ok: false,
      problem: expect.stringContaining("text instead of calling submit_delivery"),
    });
    expect(
      interpretDelivery([{ toolName: SUBMIT_DELIVERY, input: { state: "MAYBE", reason: "" } }], ""),
    ).toMatchObject({ ok: false, problem: expect.stringContaining("state") });
    expect(interpretDelivery([{ toolName: "fs_write", input: {} }], "")).toMatchObject({ ok: false });
  });

  it("offline: DONE iff the root verified", () => {
    expect(deliveryHeuristic({ rootStatus: "VERIFIED" }).state).toBe("DONE");
    expect(deliveryHeuristic({ rootStatus: "FAILED" })).toMatchObject({
      state: "NEEDS_WORK",
      missing: [expect.any(String)],
    });
  });
});
