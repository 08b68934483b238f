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
    "of %i characters runs on the offline model without an internal error",
    async (chars) => {
      const task = stackTrace(chars);
      const { view, runId, events } = await runTask({ task, model: createOfflineModel(), sandboxes: ok() });
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
});
