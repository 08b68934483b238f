import { describe, expect, it } from "vitest";
import type { EventInput } from "@/server/domain/events/schema";
import { decomposedRun, sequence } from "@/testing/events/events";
import { foldEvents } from "./fold";
import { phaseOf } from "./phase";

const phase = (bodies: EventInput[]) => phaseOf(foldEvents(sequence(bodies)), "run-1");

describe("phaseOf", () => {
  const run = decomposedRun();
  it("walks through the seed's phases as the log grows", () => {
    expect(phase(run.slice(0, 2))).toBe("DISCOVERING_INTENT");
    expect(phase(run.slice(0, 4))).toBe("BUILDING_CONTRACT");
    expect(phase(run)).toBe("EXECUTING_PLAN");
    const verified: EventInput[] = ["c1", "c2"].map((intentionId) => ({
      type: "intention-status-changed",
      runId: "run-1",
      intentionId,
      status: "VERIFIED",
      reason: null,
    }));
    expect(phase([...run, ...verified])).toBe("VERIFYING");
    expect(phase([...run, { type: "run-ended", runId: "run-1", status: "VERIFIED", reason: "ok" }])).toBe(
      "COMPLETED",
    );
    expect(phase([...run, { type: "run-ended", runId: "run-1", status: "STOPPED", reason: "by user" }])).toBe(
      "STOPPED",
    );
    // An answer that came is complete, like a verified run (it is not shown VERIFIED: shown-status.ts).
    expect(
      phase([...run, { type: "run-ended", runId: "run-1", status: "ANSWERED", reason: "answered" }]),
    ).toBe("COMPLETED");
  });

  it("knows no phase for an unknown run", () => {
    expect(phaseOf(foldEvents(sequence(run)), "nope")).toBeNull();
  });
});
