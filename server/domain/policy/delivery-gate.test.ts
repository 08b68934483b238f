import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  DELIVERY_SOURCES,
  type DeliveryReport,
  foldDeliveryGate,
  INITIAL_DELIVERY_GATE,
  reduceDeliveryGate,
} from "./delivery-gate";
import { DELIVERY_STATES } from "./reasoning-outcome";

const report = (
  state: DeliveryReport["state"],
  source: DeliveryReport["source"],
  at = 1,
): DeliveryReport => ({
  type: "reported",
  state,
  source,
  at,
  reason: `${source} says ${state}`,
});

const anyReport = fc.record({
  type: fc.constant("reported" as const),
  state: fc.constantFrom(...DELIVERY_STATES),
  source: fc.constantFrom(...DELIVERY_SOURCES),
  at: fc.nat(),
  reason: fc.string({ maxLength: 20 }),
});

describe("reduceDeliveryGate", () => {
  it.each([
    ["delivery_check", "DONE", "DONE"],
    ["verification", "DONE", "DONE"],
    ["qa_review", "DONE", "NEEDS_WORK"],
    ["final_retry", "DONE", "NEEDS_WORK"],
    ["delivery_check", "NEEDS_WORK", "NEEDS_WORK"],
    ["qa_review", "NEEDS_WORK", "NEEDS_WORK"],
  ] as const)("from NEEDS_WORK, %s saying %s gives %s", (source, state, expected) => {
    expect(reduceDeliveryGate(INITIAL_DELIVERY_GATE, report(state, source)).status).toBe(expected);
  });

  it("records who marked it DONE, when and why", () => {
    expect(
      foldDeliveryGate([report("NEEDS_WORK", "delivery_check", 3), report("DONE", "verification", 7)]),
    ).toEqual({
      status: "DONE",
      reports: 2,
      doneBy: "verification",
      doneAt: 7,
      reason: "verification says DONE",
    });
  });

  it("never leaves DONE, whatever comes after (QA, retries, NEEDS_WORK turns)", () => {
    fc.assert(
      fc.property(fc.array(anyReport), fc.array(anyReport), (before, after) => {
        const done = foldDeliveryGate([...before, report("DONE", "delivery_check", 99)]);
        const later = after.reduce(reduceDeliveryGate, done);
        expect(later).toBe(done);
        expect(later.status).toBe("DONE");
      }),
    );
  });

  it("is DONE iff an authoritative source has said DONE", () => {
    fc.assert(
      fc.property(fc.array(anyReport), (reports) => {
        const authoritativeDone = reports.some(
          (r) => r.state === "DONE" && (r.source === "delivery_check" || r.source === "verification"),
        );
        expect(foldDeliveryGate(reports).status).toBe(authoritativeDone ? "DONE" : "NEEDS_WORK");
      }),
    );
  });
});
