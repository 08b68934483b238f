import { describe, expect, it } from "vitest";
import { MAX_STEP_CHARS } from "@/server/domain/text/fit-text";
import { createOfflineModel } from "@/server/model";
import { ofType } from "@/testing/events/events";
import { stackTrace } from "@/testing/events/long-text";
import { intentions, ok } from "@/testing/harness/engine-scripts";
import { runTask } from "@/testing/harness/riva-harness";

/** A pasted stack trace as the task: the run keeps it whole and summarises it where a field has a cap. */

describe("a long task", () => {
  it.each([20_000, 100_000])(
    "of %i characters runs on the offline heuristics without an internal error",
    async (chars) => {
      const task = stackTrace(chars);
      // The heuristics themselves under another id: the built-in model answers a request it cannot
      // read at once (below), and this test is about the engine splitting and capping long steps.
      const heuristics = { ...createOfflineModel(), id: "heuristics-under-test" };
      const { view, runId, events } = await runTask({ task, model: heuristics, sandboxes: ok() });
      expect(view.runs[runId]?.reason ?? "").not.toMatch(/internal error/);
      expect(ofType(events, "run-started")[0]?.task).toBe(task);
      const [root] = intentions(view);
      expect(root?.what).toBe(task);
      const steps = ofType(events, "approval-requested").flatMap((request) => request.children);
      expect(steps.length).toBeGreaterThan(0);
      for (const step of steps) expect(step.what.length).toBeLessThanOrEqual(MAX_STEP_CHARS);
      expect(steps.some((step) => /more characters left out/.test(step.what))).toBe(true);
    },
  );

  it("the built-in offline model answers one it cannot read at once: no cycle, a capped explanation", async () => {
    const task = stackTrace(20_000);
    const { view, runId, events } = await runTask({ task, model: createOfflineModel(), sandboxes: ok() });
    expect(view.runs[runId]).toMatchObject({ status: "FAILED", rootId: null });
    expect(view.runs[runId]?.reason).toContain("cannot read this request");
    expect(ofType(events, "cycle-started")).toHaveLength(0);
    const answer = view.messages.find((message) => message.role === "agent")?.text ?? "";
    expect(answer).toContain("configure a model");
    expect(answer.length).toBeLessThan(3_000);
  });
});
