import { describe, expect, it } from "vitest";
import type { EventInput } from "@/server/domain/events/schema";
import { emptySessionView, foldEvents } from "@/server/domain/session/fold";
import { cycle, decomposedRun, sequence } from "@/testing/events/events";
import { acceptRefusal } from "./accept-intention";

const failed = (intentionId: string): EventInput => ({
  type: "intention-status-changed",
  runId: "run-1",
  intentionId,
  status: "FAILED",
  reason: "not verified",
});
const runEnded: EventInput = { type: "run-ended", runId: "run-1", status: "FAILED", reason: "r" };

function viewOf(bodies: EventInput[]) {
  return foldEvents(sequence(bodies), emptySessionView());
}

describe("acceptRefusal", () => {
  it("accepts a leaf whose every check was already green before the work, once its run ended", () => {
    const check = { kind: "FILE_EXISTS", path: "a.txt" } as const;
    const bodies: EventInput[] = [
      ...decomposedRun(),
      { type: "contract-built", runId: "run-1", intentionId: "c1", criteria: [check] },
      {
        type: "checks-baselined",
        runId: "run-1",
        intentionId: "c1",
        results: [{ index: 0, result: { criterion: check, passed: true, evidence: "exists" } }],
        skipped: [],
      },
      ...cycle("run-1", "c1", "cy1", 0).slice(0, 4),
      {
        type: "criteria-checked",
        runId: "run-1",
        intentionId: "c1",
        cycleId: "cy1",
        results: [{ criterion: check, passed: true, evidence: "exists" }],
      },
      ...cycle("run-1", "c1", "cy1", 0).slice(4),
      failed("c1"),
    ];
    const running = viewOf(bodies);
    expect(acceptRefusal(running, running.intentions.c1)).toContain("still running");
    const ended = viewOf([...bodies, runEnded]);
    expect(acceptRefusal(ended, ended.intentions.c1)).toBeNull();
    expect(acceptRefusal(ended, undefined)).toContain("does not exist");
  });

  it("refuses a node that failed on its own check, and a parent", () => {
    const view = viewOf([
      ...decomposedRun(),
      ...cycle("run-1", "c1", "cy1", 1),
      failed("c1"),
      failed("root"),
      runEnded,
    ]);
    expect(acceptRefusal(view, view.intentions.c1)).toContain("failed for want of evidence");
    expect(acceptRefusal(view, view.intentions.root)).toContain("failed for want of evidence");
  });

  it("folds an acceptance into the node with the person's name, evidence kind and reason", () => {
    const view = viewOf([
      ...decomposedRun(),
      ...cycle("run-1", "c1", "cy1", 0),
      failed("c1"),
      runEnded,
      {
        type: "intention-status-changed",
        runId: "run-1",
        intentionId: "c1",
        status: "VERIFIED",
        reason: "accepted by Ada: checked by hand",
        evidence: "accepted-by-person",
        acceptedBy: { userId: "u1", name: "Ada" },
      },
    ]);
    expect(view.intentions.c1).toMatchObject({
      status: "VERIFIED",
      evidence: "accepted-by-person",
      acceptedBy: "Ada",
      reason: "accepted by Ada: checked by hand",
    });
    expect(acceptRefusal(view, view.intentions.c1)).toBe(
      "Ada already accepted it as verified; nothing was changed.",
    );
  });
});
