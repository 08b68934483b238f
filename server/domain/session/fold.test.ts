import { describe, expect, it } from "vitest";
import { cycle, decomposedRun, sequence } from "@/testing/events/events";
import { applyEvent, emptySessionView, foldEvents, rollUp } from "./fold";

describe("foldEvents", () => {
  it("builds the intention tree with children in order under the root", () => {
    const view = foldEvents(sequence(decomposedRun()));
    const run = view.runs["run-1"];
    expect(run?.rootId).toBe("root");
    expect(view.intentions.root?.childIds).toEqual(["c1", "c2"]);
    expect(view.intentions.c2?.depth).toBe(1);
    expect(view.approvals.ap1).toMatchObject({ status: "APPROVED", decidedBy: "Ada" });
    expect(view.messages.map((message) => message.text)).toEqual(["run `a` and run `b`"]);
  });

  it("records a cycle's thought, action, result and judgment", () => {
    const view = foldEvents(sequence([...decomposedRun(), ...cycle("run-1", "c1", "cy1", 3)]));
    expect(view.intentions.c1?.cycles).toEqual([
      expect.objectContaining({
        id: "cy1",
        exitCode: 3,
        output: "out",
        judgment: "FAILURE",
        judgmentReason: "exit code 3",
      }),
    ]);
  });

  it("ignores an event it has already folded, so a redelivery changes nothing", () => {
    const events = sequence([...decomposedRun(), ...cycle("run-1", "c1", "cy1", 0)]);
    const once = foldEvents(events);
    const twice = foldEvents(events, foldEvents(events));
    expect(twice).toEqual(once);
  });

  it("folds in two halves to the same view as in one go", () => {
    const events = sequence([
      ...decomposedRun(),
      ...cycle("run-1", "c1", "cy1", 0),
      ...cycle("run-1", "c2", "cy2", 1),
    ]);
    const whole = foldEvents(events);
    const halves = emptySessionView();
    for (const event of events.slice(0, 7)) applyEvent(halves, event);
    foldEvents(events.slice(7), halves);
    expect(halves).toEqual(whole);
  });

  it("marks the run ended with its reason", () => {
    const events = sequence([
      ...decomposedRun(),
      { type: "run-ended", runId: "run-1", status: "FAILED", reason: "child 2 failed" },
    ]);
    expect(foldEvents(events).runs["run-1"]).toMatchObject({ status: "FAILED", reason: "child 2 failed" });
  });
});

describe("spend", () => {
  it("adds each call's tokens and cost to the run and its intention, and rolls them up the tree", () => {
    const call = (intentionId: string, costUsd: number | null) =>
      ({
        type: "llm-called",
        runId: "run-1",
        intentionId,
        stage: "act",
        modelId: "m",
        offline: false,
        tokensIn: 100,
        tokensOut: 50,
        latencyMs: 1,
        error: null,
        costUsd,
      }) as const;
    const view = foldEvents(
      sequence([...decomposedRun(), call("root", 0.01), call("c1", 0.02), call("c2", null)]),
    );
    expect(view.runs["run-1"]).toMatchObject({
      llmCalls: 3,
      tokensIn: 300,
      tokensOut: 150,
      unpricedCalls: 1,
    });
    expect(view.runs["run-1"]?.costUsd).toBeCloseTo(0.03);
    expect(rollUp(view, "c1")).toEqual({ tokens: 150, costUsd: 0.02 });
    expect(rollUp(view, "root").tokens).toBe(450);
    expect(rollUp(view, "root").costUsd).toBeCloseTo(0.03);
  });
});
