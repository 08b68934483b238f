import { describe, expect, it } from "vitest";
import { decomposedRun, sequence } from "@/testing/events/events";
import { markersOf } from "./markers";

describe("markersOf", () => {
  it("marks the decomposition, its answer, failures and the end, at the position that shows them", () => {
    const events = sequence([
      ...decomposedRun(),
      {
        type: "intention-status-changed",
        runId: "run-1",
        intentionId: "c1",
        status: "FAILED",
        reason: "exit code 2",
      },
      { type: "run-ended", runId: "run-1", status: "FAILED", reason: "child 1 failed" },
    ]);
    expect(markersOf(events)).toEqual([
      { position: 7, kind: "decomposition", label: "decomposition into 2" },
      { position: 8, kind: "approval", label: "approved by Ada" },
      { position: 11, kind: "failure", label: "failed: exit code 2" },
      { position: 12, kind: "end", label: "run failed" },
    ]);
  });
});
