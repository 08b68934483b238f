import { describe, expect, it } from "vitest";
import type { StoredEvent } from "@/server/domain/events/schema";
import type { DeliveryCheckInput } from "@/server/model/delivery/types";
import { ModelUnavailableError } from "@/server/model/errors";
import type { AgentModel } from "@/server/model/types";
import { ok, splitOnAnd } from "@/testing/harness/engine-scripts";
import { runTask } from "@/testing/harness/riva-harness";

type Body = StoredEvent["body"];
function ofType<T extends Body["type"]>(bodies: Body[], type: T) {
  return bodies.filter((body): body is Extract<Body, { type: T }> => body.type === type);
}

/** The scripted engine model, with a delivery check that answers (or fails) as told. */
function withCheck(check: AgentModel["checkDelivery"]): AgentModel & { asked: DeliveryCheckInput[] } {
  const asked: DeliveryCheckInput[] = [];
  return {
    ...splitOnAnd,
    id: "checker",
    asked,
    checkDelivery: async (input, signal) => {
      asked.push(input);
      if (!check) throw new Error("no check");
      return check(input, signal);
    },
  };
}

const CALL = {
  stage: "delivery_check" as const,
  modelId: "checker",
  offline: false,
  tokensIn: 10,
  tokensOut: 5,
  latencyMs: 1,
  tools: [],
};

describe("the delivery check before the run ends", () => {
  it("asks the run's model with the request and the tree's outcome, and records its view", async () => {
    const model = withCheck(async () => ({
      answer: { state: "NEEDS_WORK", reason: "No README was written.", missing: ["README.md"] },
      call: CALL,
    }));
    const { view, runId, events } = await runTask({ task: "run `a` and run `b`", model, sandboxes: ok() });
    const run = view.runs[runId];
    expect(run?.status).toBe("VERIFIED");
    expect(model.asked).toHaveLength(1);
    expect(model.asked[0]).toMatchObject({
      task: "run `a` and run `b`",
      rootStatus: "VERIFIED",
      request: { mode: "agent", reasoning: "off" },
    });
    expect(model.asked[0]?.outcome).toHaveLength(3);
    // The model's NEEDS_WORK is shown, but DONE (by the verification) is terminal.
    expect(run?.delivery).toMatchObject({ status: "DONE", doneBy: "verification" });
    expect(run?.deliveryReports.at(-1)).toMatchObject({
      source: "delivery_check",
      state: "NEEDS_WORK",
      modelState: "NEEDS_WORK",
      missing: ["README.md"],
      modelId: "checker",
      moved: false,
      fallback: null,
    });
    const calls = ofType(
      events.map((event) => event.body),
      "llm-called",
    ).filter((call) => call.stage === "delivery_check");
    expect(calls).toEqual([expect.objectContaining({ modelId: "checker", error: null, tokensIn: 10 })]);
    // Last before the end: nothing but the run's end follows the check.
    const types = events.map((event) => event.body.type);
    expect(types.slice(types.lastIndexOf("delivery-reported") + 1)).toEqual(["run-ended", "message-posted"]);
  });

  it("a failed model is logged with its error and the heuristic answers (DONE iff the root verified)", async () => {
    const model = withCheck(async () => {
      throw new ModelUnavailableError("connection refused", "unreachable");
    });
    const { view, runId, events } = await runTask({ task: "run `a`", model, sandboxes: ok() });
    const failed = ofType(
      events.map((event) => event.body),
      "llm-called",
    ).filter((call) => call.stage === "delivery_check" && call.error !== null);
    expect(failed.at(-1)?.error).toMatch(/connection refused/);
    expect(view.runs[runId]?.deliveryReports.at(-1)).toMatchObject({
      source: "delivery_check",
      state: "DONE",
      modelState: "DONE",
      modelId: "offline-heuristics",
      fallback: expect.stringMatching(
        /^the model could not answer \(.*connection refused.*\); the heuristic answered$/,
      ),
    });
  });

  it("a model without the check (a test double) gets the offline heuristic, labelled as such", async () => {
    const { view, runId, events } = await runTask({ task: "run `a`", model: splitOnAnd, sandboxes: ok() });
    const check = ofType(
      events.map((event) => event.body),
      "llm-called",
    ).find((call) => call.stage === "delivery_check");
    expect(check).toMatchObject({ modelId: "offline-heuristics", offline: true, error: null });
    expect(view.runs[runId]?.deliveryReports.map((entry) => entry.source)).toEqual([
      "verification",
      "delivery_check",
    ]);
  });
});
