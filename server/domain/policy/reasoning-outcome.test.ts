import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compactReasoning, OUTCOME_FIELD_CAP, ReasoningOutcome, RISK_CAP } from "./reasoning-outcome";

describe("compactReasoning", () => {
  it("reads the macro format with bold labels inside an <ide_reasoning> block", () => {
    const text = [
      "<ide_reasoning>",
      "- **Analyze**: the user wants a health endpoint.",
      "- **Research**: server/api/root.ts, the router list.",
      "- **Plan**: add route; add test; run tests.",
      "- **Reflect**: the router may need auth middleware.",
      "- **Action**: fs.read server/api/root.ts",
      "- **Delivery**: `NEEDS_WORK`",
      "</ide_reasoning>",
      "I will start by reading the router.",
    ].join("\n");
    expect(compactReasoning(text)).toEqual({
      plan_delta: "add route; add test; run tests.",
      next_action: "fs.read server/api/root.ts",
      known_risks: "the router may need auth middleware.",
      delivery_state: "NEEDS_WORK",
    });
  });

  it("reads markdown headings with multi-line bullet sections", () => {
    const text = [
      "## Plan delta",
      "- tests now pass locally",
      "- skip the migration step",
      "",
      "## Next action",
      "1. git.diff",
      "## Why",
      "this text belongs to no field",
      "### Known risks:",
      "flaky network test",
      "## Delivery",
      "**DONE**",
      "",
      "(written after the block)",
    ].join("\n");
    expect(compactReasoning(text)).toEqual({
      plan_delta: "tests now pass locally; skip the migration step",
      next_action: "git.diff",
      known_risks: "flaky network test",
      delivery_state: "DONE",
    });
  });

  it("reads JSON in a fence, with camelCase or snake_case keys and list values", () => {
    const fenced =
      'Here you go:\n```json\n{"planDelta":"none","nextAction":["fs.read a","fs.read b"],"knownRisks":"","deliveryState":"DONE"}\n```';
    expect(compactReasoning(fenced)).toEqual({
      plan_delta: "none",
      next_action: "fs.read a; fs.read b",
      known_risks: "",
      delivery_state: "DONE",
    });
    const bare = 'prefix {"plan_delta": "x", "delivery_state": "NEEDS_WORK"} suffix';
    expect(compactReasoning(bare)).toMatchObject({ plan_delta: "x", delivery_state: "NEEDS_WORK" });
  });

  it("falls back to labels when braces are not JSON", () => {
    const text = "Plan: use {curly} braces { not json\nNext step: run `npm test`\nStatus: done";
    expect(compactReasoning(text)).toEqual({
      plan_delta: "use {curly} braces { not json",
      next_action: "run `npm test`",
      known_risks: "",
      delivery_state: "DONE",
    });
  });

  it.each([
    ["Delivery: not done yet", "NEEDS_WORK"],
    ["Delivery: NEEDS WORK", "NEEDS_WORK"],
    ["Delivery: needs-work, done with part 1", "NEEDS_WORK"],
    ["Delivery: maybe", "NEEDS_WORK"],
    ["Delivery: Complete.", "DONE"],
    ["the work is DONE according to me", "NEEDS_WORK"],
    ["Plan: ship it\n\n**DONE**", "DONE"],
    ["", "NEEDS_WORK"],
  ])("fails closed on delivery: %j → %s", (text, state) => {
    expect(compactReasoning(text).delivery_state).toBe(state);
  });

  it("keeps the gist of unstructured prose as the plan delta", () => {
    expect(compactReasoning("I looked at the  code\nand it is fine.")).toMatchObject({
      plan_delta: "I looked at the code and it is fine.",
      next_action: "",
      delivery_state: "NEEDS_WORK",
    });
  });

  it("always returns a valid, capped outcome whatever the model wrote", () => {
    const messy = fc.array(
      fc.oneof(
        fc.string(),
        fc.constantFrom("## Plan", "- **Risks**: ", "Delivery: DONE", "{", "}", "```json", "<ide_reasoning>"),
      ),
      { maxLength: 40 },
    );
    fc.assert(
      fc.property(messy, (parts) => {
        const outcome = compactReasoning(parts.join("\n"));
        expect(ReasoningOutcome.safeParse(outcome).success).toBe(true);
        expect(outcome.plan_delta.length).toBeLessThanOrEqual(OUTCOME_FIELD_CAP);
        expect(outcome.known_risks.length).toBeLessThanOrEqual(RISK_CAP);
      }),
    );
  });

  it("caps long fields and puts risks on one line", () => {
    const outcome = compactReasoning(`Plan: ${"x".repeat(5000)}\nRisks:\n- a\n- b`);
    expect(outcome.plan_delta).toHaveLength(OUTCOME_FIELD_CAP);
    expect(outcome.plan_delta.endsWith("…")).toBe(true);
    expect(outcome.known_risks).toBe("a; b");
  });
});
